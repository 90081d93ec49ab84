import Foundation

/// A snapshot of format version 1 as heraldd wrote it (main at 24af319, before sections):
/// every kind of interaction and member donated through `heraldctl call`, a Focus with an
/// end, a silenced conversation, a summary, settings of two apps and a forgotten app's
/// slot, then `heraldctl call snapshot`. `json` is what that build's
/// `heraldctl inspect-snapshot --json` printed for it.
enum FormatVersion1Fixture {
    static let bytes: [UInt8] = [UInt8](Data(base64Encoded: base64.joined())!)

    private static let base64 = [
        "SEVSQUxEU1MBAAAAAgAAAAEAAAAAAAAA9HP7B6IBAAAEAAAAAAAAALAFAAAAAAAABaS2s1ZyWyQfDGludGVyYWN0aW9ucwRhcHBz",
        "DHJlY29yZENodW5rcwVmb2N1cw1jb25maWd1cmF0aW9uBG5hbWUNYWxsb3dlZFBlb3BsZQZoYW5kbGUFdmFsdWULZGlzcGxheU5h",
        "bWULYWxsb3dlZEFwcHMSYWxsb3dUaW1lU2Vuc2l0aXZlEmFsbG93UmVwZWF0ZWRDYWxscw1hbGxvd01lbnRpb25zBXVudGlsCmFj",
        "dGl2YXRpb24Ic2lsZW5jZWQNY29udmVyc2F0aW9ucwN1aWQDYXBwFmNvbnZlcnNhdGlvbklkZW50aWZpZXIHc3VtbWFyeQV0aW1l",
        "cwRob3VyBm1pbnV0ZQhzZXR0aW5ncw1hdXRob3JpemF0aW9uDGNhcGFiaWxpdGllcw1jb21tdW5pY2F0aW9uDXRpbWVTZW5zaXRp",
        "dmUIY3JpdGljYWwIYQQAAAAI7QIAAAEJLQAAAAMAAAAHEG9yZy5leGFtcGxlLmNoYXQHEW9yZy5leGFtcGxlLnBob25lBwIAMgIJ",
        "tAIAAAEAAAAKqwIAAAAA8nkMdCdayEHzmwAEbS0xNwZnLXRyaXAAACDQKFjIQf+HAAsrMSA1NTUgMDEwMQIHQm8gQmVyZzQDCWdp",
        "dmVuTmFtZQpmYW1pbHlOYW1lCG5pY2tuYW1lCBAAAAAABwJCbwEHBEJlcmcCBwFCLQEDdXJsCCMAAAAAByBmaWxlOi8vL3Vzci9z",
        "aGFyZS9waXhtYXBzL2JvLnBuZwljb250YWN0LTcIY3VzdG9tLTcCAQ5ib0BleGFtcGxlLm9yZwEAAmJvAgKHgAAPYW5uQGV4YW1w",
        "bGUub3JnAQdBbm4gTGVlhYAADmN5QGV4YW1wbGUub3JnAkN5DABBTzFoTFdXWGN3TARUcmlwBmMtdHJpcANzbXMrAgRkYXRhCG1p",
        "bWVUeXBlCBcAAAAABwhhR1ZzYkc4PQEHCWltYWdlL3BuZ10EDnJlY2lwaWVudENvdW50E21lbnRpb25zQ3VycmVudFVzZXIUaXNS",
        "ZXBseVRvQ3VycmVudFVzZXIVbm90aWZ5UmVjaXBpZW50QW55d2F5CAkAAAAAAwYBAgIBAwIAAA93KnQnWshBpIQABG0tMTgBh4AA",
        "D2FubkBleGFtcGxlLm9yZwEHQW5uIExlZQVjLWFubgEAAUisQHQnWshBiOAHA2stMQGFgAADZGVlA0RlZQEFAl4BCABtZW1iZXJz",
        "CE8AAAAACUkAAAADAAAACRwAAAACAAAABwFuCRAAAAADAAAAAwIFAAAAAAAABEAACQ0AAAACAAAABwZtaXNzZWQCCQ0AAAACAAAA",
        "BwJpZAcDZHVwJgEDdXJsCBwAAAAABxlodHRwczovL2V4YW1wbGUub3JnL2cucG5nAACdbHR0J1rIQdCAAARtLTE5hYAAA2V2ZQNF",
        "dmUMAGFQc1gxZXdYNmlBBWMtZXZlAwhoAAAABAhfAAAABQcEV29yawYJJQAAAAEAAAAIHAAAAAcIEQAAAAgHDmN5QGV4YW1wbGUu",
        "b3JnCQcCQ3kKCRcAAAABAAAABxFvcmcuZXhhbXBsZS5waG9uZQsCDAINAQ4FAAAgoCV10EEPBAEQCDAAAAAPBAERCScAAAABAAAA",
        "CB4AAAASBAATBxBvcmcuZXhhbXBsZS5jaGF0FAcFYy1ldmUVCE4AAAABCSgAAAACAAAABxBvcmcuZXhhbXBsZS5uZXdzBxBvcmcu",
        "ZXhhbXBsZS5jaGF0FgkaAAAAAgAAAAgGAAAAFwMQGAMACAYAAAAXAyQYAzwZCXAAAAACAAAACDMAAAASBAATBxFvcmcuZXhhbXBs",
        "ZS5hbGFybRoHDW5vdERldGVybWluZWQbCAYAAAAcAh0CHgIILwAAABIEABMHEG9yZy5leGFtcGxlLmNoYXQaBwphdXRob3JpemVk",
        "GwgGAAAAHAIdAh4B",
    ]

    static let json = [
        #"{"focus":{"activation":1,"configuration":{"allowMentions":false,"allowRepeatedCalls":true,"allowTimeSensitive""#,
        #":true,"allowedApps":["org.example.phone"],"allowedPeople":[{"displayName":"Cy","handle":{"value":"cy@example.o"#,
        #"rg"}}],"name":"Work","until":"2036-01-01T00:00:00Z"}},"interactions":{"apps":["org.example.chat","org.example."#,
        #"phone","\u00002"],"records":[{"app":0,"donatedAt":"2026-11-23T10:37:28Z","interaction":{"date":"2026-11-20T10:"#,
        #"00:00Z","direction":"incoming","groupIdentifier":"g-trip","identifier":"m-17","intent":{"content":"\u0000AO1hL"#,
        #"WWXcwL","conversationIdentifier":"c-trip","donationMetadata":{"isReplyToCurrentUser":false,"mentionsCurrentUse"#,
        #"r":true,"notifyRecipientAnyway":true,"recipientCount":3},"groupImage":{"data":"aGVsbG8=","mimeType":"image/png"#,
        #""},"recipients":[{"displayName":"Ann Lee","handle":{"type":"emailAddress","value":"ann@example.org"}},{"displa"#,
        #"yName":"Cy","handle":{"value":"cy@example.org"}}],"sender":{"aliases":[{"type":"emailAddress","value":"bo@exam"#,
        #"ple.org"},{"value":"bo"}],"contactIdentifier":"contact-7","customIdentifier":"custom-7","displayName":"Bo "#,
        #"Berg","handle":{"type":"phoneNumber","value":"+1 555 0101"},"image":{"url":"file:///usr/share/pixmaps/bo.png"}"#,
        #","isMe":false,"nameComponents":{"familyName":"Berg","givenName":"Bo","nickname":"B"},"suggestionType":"instant"#,
        #"MessageAddress"},"serviceName":"sms","speakableGroupName":"Trip","type":"sendMessage"}},"uid":0},{"app":0,"don"#,
        #"atedAt":"2026-11-23T10:37:28Z","interaction":{"direction":"outgoing","identifier":"m-18","intent":{"conversati"#,
        #"onIdentifier":"c-ann","outgoingMessageType":"audio","recipients":[{"displayName":"Ann Lee","handle":{"type":"e"#,
        #"mailAddress","value":"ann@example.org"}}],"type":"sendMessage"}},"uid":0},{"app":1,"donatedAt":"2026-11-23T10:"#,
        #"37:28Z","interaction":{"direction":"incoming","identifier":"k-1","intent":{"audioRoute":"bluetooth","callCapab"#,
        #"ility":"videoCall","callRecordToCallBack":{"\u0000members":[["n",[1,2.5,null]],["missed",true],["id","dup"]]},"#,
        #""contacts":[{"displayName":"Dee","handle":{"value":"dee"}}],"destinationType":"callBack","groupImage":{"url":""#,
        #"https://example.org/g.png"},"type":"startCall"}},"uid":0},{"app":0,"donatedAt":"2026-11-23T10:37:28Z","interac"#,
        #"tion":{"direction":"incoming","identifier":"m-19","intent":{"content":"\u0000aPsX1ewX6iA","conversationIdentif"#,
        #"ier":"c-eve","sender":{"displayName":"Eve","handle":{"value":"eve"}},"type":"sendMessage"}},"uid":0}]},"settin"#,
        #"gs":[{"app":"org.example.alarm","authorization":"notDetermined","capabilities":{"communication":true,"critical"#,
        #"":true,"timeSensitive":true},"uid":0},{"app":"org.example.chat","authorization":"authorized","capabilities":{""#,
        #"communication":true,"critical":false,"timeSensitive":true},"uid":0}],"silenced":{"activation":1,"conversations"#,
        #"":[{"app":"org.example.chat","conversationIdentifier":"c-eve","uid":0}]},"summary":{"apps":["org.example.news""#,
        #","org.example.chat"],"times":[{"hour":8,"minute":0},{"hour":18,"minute":30}]}}"#,
    ].joined()
}
