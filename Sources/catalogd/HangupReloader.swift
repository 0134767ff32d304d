import CatalogServices
import CatalogStore
import Logging
import RPCHTTP2
import ServiceLifecycle
import UnixSignals

/// Reads catalogd's files again on every SIGHUP: the token file, handed to the authorizer,
/// after which every open Watch its tokens no longer allow ends; and the TLS certificate,
/// key and client CA, which new connections then use (open ones keep theirs). A file that
/// cannot be used is logged and what was in use stays. Ends at graceful shutdown.
struct HangupReloader: Service {
    /// The token file, the authorizer its tokens go to and the Watch hub whose streams they
    /// must still allow; `nil` without `--tokens`.
    let tokens: (path: String, authorizer: TokenAuthorizer, watches: FilterHub)?
    /// The server's TLS credentials; `nil` when serving plaintext.
    let tls: ServerTLS?
    /// SIGHUP, trapped before catalogd says it is ready, so that no early signal kills it.
    let hangups: UnixSignalsSequence
    let logger: Logger

    func run() async {
        for await _ in hangups.cancelOnGracefulShutdown() {
            if let tokens { reloadTokens(path: tokens.path, into: tokens.authorizer, watches: tokens.watches) }
            if let tls { reloadTLS(tls) }
        }
    }

    private func reloadTokens(path: String, into authorizer: TokenAuthorizer, watches: FilterHub) {
        do {
            let tokens = try TokenFile.load(path: path)
            authorizer.replaceTokens(with: tokens)
            let ended = watches.endUnauthorizedWatches()
            logger.notice(
                "reloaded the token file",
                metadata: ["file": "\(path)", "tokens": "\(tokens.tokens.count)", "watches_ended": "\(ended)"])
        } catch {
            logger.error("kept the previous tokens: \(error)")
        }
    }

    private func reloadTLS(_ tls: ServerTLS) {
        do {
            try tls.reload()
            logger.notice(
                "reloaded the TLS certificate; new connections use it",
                metadata: ["certificate": "\(tls.certificate.certificateChain)", "key": "\(tls.certificate.privateKey)"])
        } catch {
            logger.error("kept the previous TLS certificate: \(error)")
        }
    }
}
