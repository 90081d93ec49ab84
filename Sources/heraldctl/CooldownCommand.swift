import ArgumentParser
import FoundationEssentials
import HeraldCore
import HeraldProtocol

/// `heraldctl cooldown [SECONDS|off]`: shows (`get-cooldown`) or sets (`set-cooldown`) the
/// caller's burst cooldown; an administrator may name another `--uid`.
struct CooldownCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cooldown",
        abstract: "Your burst cooldown: show it, set its window, or turn it off.",
        discussion: """
            When a conversation (or an app) sends notifications in quick succession, the ones after the first alert \
            arrive without sound while each follows the one before within the window; critical and Time Sensitive \
            notifications and repeated calls always sound. The window is seconds, or a number with s or m (at most \
            10 minutes); off (or 0) turns the cooldown off. Without an argument, shows it (60 seconds until set).
            """
    )

    @OptionGroup var client: ClientOptions
    @Argument(help: "The window: 90, 90s, 2m; or off.") var window: String?
    @OptionGroup var owner: FocusCommand.Owner

    func validate() throws {
        if let window, Self.seconds(window) == nil {
            throw ValidationError("The window is whole seconds from 0 to 600, or a number with s or m (2m), or off; got \(window).")
        }
    }

    func run() throws {
        guard let window, let seconds = Self.seconds(window) else {
            try client.run("get-cooldown", params: owner.adding(to: [:]), human: Self.lines)
            return
        }
        try client.run("set-cooldown", params: owner.adding(to: ["seconds": seconds.json]), flags: ["/seconds": "WINDOW", "/uid": "--uid"], human: Self.lines)
    }

    /// `off` is 0; otherwise a duration as `DurationText` reads it, in whole seconds.
    static func seconds(_ text: String) -> Int? {
        if text == "off" { return 0 }
        guard let seconds = DurationText.seconds(text), seconds >= 0, seconds <= 600, seconds == seconds.rounded() else { return nil }
        return Int(seconds)
    }

    static func lines(_ result: JSONValue) -> [String] {
        let seconds = result["seconds"]?.intValue ?? 0
        guard seconds > 0 else { return ["The burst cooldown is off: every alert sounds."] }
        return ["Burst cooldown: \(seconds) seconds. A conversation's or an app's alerts that follow one within that come without sound."]
    }
}
