import Foundation

/// A Focus, as an administrator turns it on with `set-focus`: who and what may still
/// interrupt while it is on.
///
/// The Focus belongs to the whole host, as on a phone.
public struct FocusConfiguration: Codable, Sendable, Hashable {
    public var name: String
    public var allowedPeople: [Person]
    /// App names (`org.example.chat`).
    public var allowedApps: [String]
    /// Time Sensitive notifications break through; true when absent.
    public var allowTimeSensitive: Bool
    /// A second call from the same caller within the repeated-call window breaks
    /// through; true when absent.
    public var allowRepeatedCalls: Bool
    /// Messages that mention or reply to the user break through; false when absent.
    public var allowMentions: Bool
    /// The Focus ends by itself at this time.
    public var until: Date?

    public init(
        name: String,
        allowedPeople: [Person] = [],
        allowedApps: [String] = [],
        allowTimeSensitive: Bool = true,
        allowRepeatedCalls: Bool = true,
        allowMentions: Bool = false,
        until: Date? = nil
    ) {
        self.name = name
        self.allowedPeople = allowedPeople
        self.allowedApps = allowedApps
        self.allowTimeSensitive = allowTimeSensitive
        self.allowRepeatedCalls = allowRepeatedCalls
        self.allowMentions = allowMentions
        self.until = until
    }

    private enum CodingKeys: String, CodingKey {
        case name, allowedPeople, allowedApps, allowTimeSensitive, allowRepeatedCalls, allowMentions, until
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.name = try container.decode(String.self, forKey: .name)
        self.allowedPeople = try container.decodeIfPresent([Person].self, forKey: .allowedPeople) ?? []
        self.allowedApps = try container.decodeIfPresent([String].self, forKey: .allowedApps) ?? []
        self.allowTimeSensitive = try container.decodeIfPresent(Bool.self, forKey: .allowTimeSensitive) ?? true
        self.allowRepeatedCalls = try container.decodeIfPresent(Bool.self, forKey: .allowRepeatedCalls) ?? true
        self.allowMentions = try container.decodeIfPresent(Bool.self, forKey: .allowMentions) ?? false
        self.until = try container.decodeIfPresent(Date.self, forKey: .until)
    }
}
