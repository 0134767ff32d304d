import Logging

/// A logger that lets only critical messages through.
package func quietLogger(_ label: String = "test") -> Logger {
    var logger = Logger(label: label)
    logger.logLevel = .critical
    return logger
}
