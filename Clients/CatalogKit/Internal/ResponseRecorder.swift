import RPCCore
import Synchronization

/// The metadata of the last unary call a client made through `CatalogClient.withResponse(_:)`.
final class ResponseRecorder: Sendable {
    private let last = Mutex<(initial: Metadata, trailing: Metadata)?>(nil)

    func record(initial: Metadata, trailing: Metadata) {
        last.withLock { $0 = (initial, trailing) }
    }

    var recorded: (initial: Metadata, trailing: Metadata)? { last.withLock { $0 } }
}
