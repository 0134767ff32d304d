import ArgumentParser

/// The value of `--console`: whether the web console is served at `/`.
enum ConsoleSwitch: String, ExpressibleByArgument {
    case on, off
}
