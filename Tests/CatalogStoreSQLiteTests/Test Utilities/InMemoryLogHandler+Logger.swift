import InMemoryLogging
import Logging

extension InMemoryLogHandler {
    /// A logger writing to this handler, at every level.
    var logger: Logger {
        let handler = self
        var logger = Logger(label: "test.store") { _ in handler }
        logger.logLevel = .trace
        return logger
    }
}
