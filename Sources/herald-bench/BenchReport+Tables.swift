import Foundation

/// The report as text tables, for stdout and docs/performance.md.
extension BenchReport {
    var tables: String {
        var text = ""
        if let machine {
            text +=
                "Herald benchmark — \(machine.timestamp), commit \(machine.commit)\(machine.dirty ? " (+ local changes)" : "")"
                + "\(machine.quick ? ", QUICK" : "")\n"
            text +=
                "\(machine.cpu), \(machine.cores) cores, \(machine.memoryKiB / 1024) MiB, Linux \(machine.kernel), "
                + "load \(machine.loadAverage); \(machine.swift); redis \(machine.redis)\n\n"
        }
        text += "Herald (requests/s counts each JSON-RPC request; a batch line holds 64; latency is per line, µs)\n"
        text += table(
            [
                "scenario", "journal", "N×P", "req/s", "p50", "p99", "p99.9", "errors", "CPU µs/req", "×floor", "×nio",
                "CPU/nio", "p50/floor", "p50/nio", "×redis SET",
            ],
            rows.map { row in
                let h = row.herald
                return [
                    h.scenario.rawValue, h.journal, "\(h.connections)×\(h.inFlight)", rate(h.requestsPerSecond),
                    micro(h.p50Us), micro(h.p99Us), micro(h.p999Us), "\(h.errors)", cpu(h.cpuUsPerRequest),
                    ratio(row.throughputOverFloor), ratio(row.throughputOverNIOFloor), ratio(row.cpuOverNIOFloor),
                    ratio(row.p50OverFloor), ratio(row.p50OverNIOFloor), ratio(row.throughputOverRedis),
                ]
            }
        )
        let journal = rows.filter { $0.herald.journal == "on" }
        if !journal.isEmpty {
            let ceiling = journalCeiling.map { rate($0.entriesPerSecond) } ?? "—"
            text += "\nJournal on (journald's ceiling: sd_journal_send with Herald's fields, \(ceiling) entries/s)\n"
            text += table(
                [
                    "scenario", "N×P", "req/s", "×ceiling", "written/s", "written/s ×ceiling", "until drained ×ceiling",
                    "drain s", "written", "dropped",
                ],
                journal.map { row in
                    let h = row.herald
                    return [
                        h.scenario.rawValue, "\(h.connections)×\(h.inFlight)", rate(h.requestsPerSecond),
                        ratio(row.throughputOverJournalCeiling), h.journalWrittenPerSecond.map(rate) ?? "—",
                        ratio(row.journalWrittenOverCeiling), ratio(row.journalDrainedOverCeiling),
                        h.journalDrainSeconds.map { String(format: "%.1f", $0) } ?? "—",
                        h.journalWritten.map(String.init) ?? "—", h.journalDropped.map(String.init) ?? "—",
                    ]
                }
            )
        }
        text += "\nReferences (same N×P; both floors answer with Herald's response size: bare sockets, and SwiftNIO)\n"
        text += table(
            ["reference", "N×P", "req/s", "p50", "p99", "p99.9", "errors", "CPU µs/req", "response B"],
            (floor + nioFloor).map { f in
                [
                    "\(f.target) \(f.scenario.rawValue)", "\(f.connections)×\(f.inFlight)", rate(f.requestsPerSecond),
                    micro(f.p50Us), micro(f.p99Us), micro(f.p999Us), "\(f.errors)", cpu(f.cpuUsPerRequest),
                    "\(f.responseBytes)",
                ]
            }
                + redis.map { r in
                    [
                        "redis SET", "\(r.connections)×\(r.pipeline)", rate(r.requestsPerSecond),
                        r.p50Ms.map { micro($0 * 1000) } ?? "—", r.p99Ms.map { micro($0 * 1000) } ?? "—", "—", "—",
                        cpu(r.cpuUsPerRequest), "—",
                    ]
                }
        )
        if !notify.isEmpty {
            text += "\nThe desktop gateway (an app's Notify until the renderer's Notify reaches it, and until the renderer answered, µs; dunst under Xvfb)\n"
            text += table(
                ["path", "rate", "sent", "answered", "lost", "errors", "p50", "p99", "max", "answered p50", "answered p99", "passed/s"],
                notify.map { n in
                    [
                        n.path, (n.offeredPerSecond.map { "\(Int($0))/s" } ?? "unpaced ×\(n.inFlight ?? 0)") + (n.beside.map { ", beside \($0)" } ?? ""),
                        "\(n.sent)", "\(n.received)",
                        "\(n.lost)", "\(n.errors)", micro(n.p50Us), micro(n.p99Us), micro(n.maxUs), micro(n.answeredP50Us),
                        micro(n.answeredP99Us), rate(n.passedPerSecond),
                    ]
                }
            )
        }
        if !bystander.isEmpty {
            let uids = bystander.contains { $0.sameUID } ? "the same uid, on a connection of its own" : "uid 65534; the attacker uid 65533"
            text += "\nA bystander's get-cooldown, one at a time, alone and while another uid repeats its worst request (ms; the bystander: \(uids))\n"
            text += table(
                ["worst case", "its requests", "its median", "alone p50", "alone p99", "alone max", "while p50", "while p99", "while max", "answered"],
                bystander.map { b in
                    [
                        b.case, "\(b.worstRequests)", milli(b.worstMedianMs), milli(b.aloneP50Ms), milli(b.aloneP99Ms), milli(b.aloneMaxMs),
                        milli(b.p50Ms), milli(b.p99Ms), milli(b.maxMs), "\(b.answered)",
                    ]
                }
            )
        }
        text += "\nTargets (goals for the design, not assertions)\n"
        text += table(
            ["target", "goal", "measured", "met"],
            targets.map { t in
                [t.name, t.goal, ratio(t.measured), t.met.map { $0 ? "yes" : "no" } ?? "—"]
            }
        )
        return text
    }

    private func table(_ header: [String], _ body: [[String]]) -> String {
        let all = [header] + body
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            "| "
                + cells.enumerated().map { index, cell in
                    let pad = String(repeating: " ", count: widths[index] - cell.count)
                    return index == 0 || Double(cell.filter { $0 != "×" }) == nil ? cell + pad : pad + cell
                }.joined(separator: " | ") + " |\n"
        }
        return line(header) + "|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|\n"
            + body.map(line).joined()
    }

    private func rate(_ value: Double) -> String { String(Int(value.rounded())) }

    /// CPU µs per request, to two places: the floors' take about one.
    private func cpu(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "—" }
        return String(format: "%.2f", value)
    }

    private func micro(_ value: Double) -> String {
        value < 100 ? String(Double(Int(value * 10)) / 10) : String(Int(value.rounded()))
    }

    /// Milliseconds, to two places under 10.
    private func milli(_ value: Double) -> String {
        value < 10 ? String(format: "%.2f", value) : String(format: "%.1f", value)
    }

    private func ratio(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "—" }
        return String(Double(Int((value * 100).rounded())) / 100)
    }
}
