import CatalogServer
import Logging
import ServiceLifecycle
import UnixSignals

/// Reads the token file again on every SIGHUP and hands the new tokens to the authorizer;
/// a file that cannot be used is logged and the previous tokens stay. Ends at graceful shutdown.
struct TokenFileReloader: Service {
    let path: String
    let authorizer: TokenAuthorizer
    /// SIGHUP, trapped before catalogd says it is ready, so that no early signal kills it.
    let hangups: UnixSignalsSequence
    let logger: Logger

    func run() async {
        for await _ in hangups.cancelOnGracefulShutdown() {
            do {
                let tokens = try TokenFile.load(path: path)
                authorizer.replaceTokens(with: tokens)
                logger.notice("reloaded the token file", metadata: ["file": "\(path)", "tokens": "\(tokens.tokens.count)"])
            } catch {
                logger.error("kept the previous tokens: \(error)")
            }
        }
    }
}
