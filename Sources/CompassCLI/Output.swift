import CompassDomain
import Foundation

/// Writes command results: one JSON document, or text tables.
enum Output {
    /// Encodes `value` as one JSON document on stdout, exactly as `/api` serves it (``CompassJSON``).
    static func json(_ value: some Encodable) throws {
        FileHandle.standardOutput.write(try CompassJSON.encode(value))
    }

    /// Prints a left-aligned table with a header and a rule; cells are cut to `maxWidth`.
    static func table(_ header: [String], _ rows: [[String]], maxWidth: Int = 60) {
        print(TextTable(header: header, rows: rows, maxWidth: maxWidth).rendered)
    }

    /// Prints one line.
    static func line(_ text: String = "") {
        print(text)
    }
}

/// A plain-text table sized to its content.
struct TextTable {
    var header: [String]
    var rows: [[String]]
    var maxWidth: Int

    var rendered: String {
        let cells = ([header] + rows).map { row in
            row.map { cell in
                let flat = cell.replacingOccurrences(of: "\n", with: " ")
                return flat.count > maxWidth ? String(flat.prefix(maxWidth - 1)) + "…" : flat
            }
        }
        var widths = Array(repeating: 0, count: header.count)
        for row in cells {
            for (index, cell) in row.enumerated() where index < widths.count {
                widths[index] = max(widths[index], cell.count)
            }
        }
        func render(_ row: [String]) -> String {
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell + String(repeating: " ", count: max(0, widths[index] - cell.count))
            }.joined(separator: "  ")
        }
        var lines = [render(cells[0]), widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")]
        lines += cells.dropFirst().map(render)
        if rows.isEmpty { lines.append("(none)") }
        return lines.joined(separator: "\n")
    }
}
