#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the CLI writes and reads: standard output for results, standard error for
/// messages, prompts and progress, standard input for answers. Knows which of them are
/// terminals and whether colours are allowed on each.
///
/// Colours go only to a terminal, never when `NO_COLOR` is set to anything non-empty, and
/// never to a `TERM=dumb` terminal.
///
/// ```swift
/// let console = Console(environment: ProcessInfo.processInfo.environment)
/// console.write(console.outputStyle.bold("ID") + "\n")
/// console.writeError("reconnecting…\n")
/// ```
package struct Console: Sendable {
    /// Whether standard output is a terminal (tables and live views by default).
    package let outputIsTerminal: Bool
    /// Whether standard error is a terminal (progress bars, colour in messages).
    package let errorIsTerminal: Bool
    /// Whether standard input is a terminal (confirmation prompts may be asked).
    package let inputIsTerminal: Bool
    /// Styling for standard output; plain when colours are off there.
    package let outputStyle: TextStyle
    /// Styling for standard error; plain when colours are off there.
    package let errorStyle: TextStyle
    private let columnsOverride: Int?

    /// The console of this process, judged from its file descriptors and `environment`
    /// (`NO_COLOR`, `TERM`, and `COLUMNS` when the terminal does not report its width).
    package init(environment: [String: String]) {
        outputIsTerminal = isatty(STDOUT_FILENO) == 1
        errorIsTerminal = isatty(STDERR_FILENO) == 1
        inputIsTerminal = isatty(STDIN_FILENO) == 1
        let colorsAllowed = (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
        outputStyle = TextStyle(enabled: colorsAllowed && outputIsTerminal)
        errorStyle = TextStyle(enabled: colorsAllowed && errorIsTerminal)
        columnsOverride = environment["COLUMNS"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
    }

    /// The width of the terminal on standard output (or standard error), else `COLUMNS`, else 80.
    package var width: Int {
        terminalSize.map { Int($0.ws_col) } ?? columnsOverride ?? 80
    }

    /// The height of the terminal on standard output (or standard error), else 24.
    package var height: Int {
        terminalSize.map { Int($0.ws_row) } ?? 24
    }

    private var terminalSize: winsize? {
        for descriptor in [STDOUT_FILENO, STDERR_FILENO] {
            var size = winsize()
            if ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 { return size }
        }
        return nil
    }

    /// Writes `text` to standard output as it is (add the newline yourself).
    package func write(_ text: String) {
        Self.write(text, to: STDOUT_FILENO)
    }

    /// Writes `text` to standard error as it is.
    package func writeError(_ text: String) {
        Self.write(text, to: STDERR_FILENO)
    }

    /// One line from standard input without its line break; `nil` at end of input.
    package func readLine() -> String? {
        Swift.readLine(strippingNewline: true)
    }

    /// Writes all of `text`, unbuffered, so that output interleaves with prompts and redraws
    /// in order; gives up quietly when the reader went away.
    private static func write(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { systemWrite(descriptor, $0.baseAddress, $0.count) }
            if written > 0 {
                bytes = bytes.dropFirst(written)
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                return
            }
        }
    }
}

/// `write(2)`, under a name that `Console.write` does not shadow.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
