import Foundation
import RPCCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSessionCall {
    /// A call's state under its lock: each event is a method that returns what to do once the
    /// lock is let go.
    struct State {
        /// Whether the response is a Connect stream of envelopes (else one bare message).
        let streaming: Bool
        /// Whether `send` claimed the one request the call makes.
        private var started = false
        private var task: URLSessionDataTask?
        private var timer: Task<Void, Never>?
        /// The response's head, once it arrived.
        private(set) var head: ConnectResponseHead?
        /// A unary answer's body, or the body of an error, as it arrives.
        private var body: [UInt8] = []
        private let maxMessageSize: Int
        /// The Connect `type` of the service's error detail.
        private let detailType: String
        private var envelopes: EnvelopeReader
        /// Messages received and not yet taken by `receive`.
        private var messages: [[UInt8]] = []
        /// How the call ended; `nil` while it goes on.
        private var outcome: Outcome?
        /// The trailing metadata, once the call ended.
        private(set) var trailingMetadata: Metadata?
        /// The `receive` waiting for a message or the end.
        private var waiter: CheckedContinuation<Void, Never>?

        init(streaming: Bool, maxMessageSize: Int, detailType: String) {
            self.streaming = streaming
            self.maxMessageSize = maxMessageSize
            self.detailType = detailType
            self.envelopes = EnvelopeReader(maxPayloadSize: maxMessageSize)
        }

        /// Keeps the deadline's timer; hands it back (to be cancelled) when the call has ended.
        mutating func keepTimer(_ timer: Task<Void, Never>) -> Task<Void, Never>? {
            guard outcome == nil else { return timer }
            self.timer = timer
            return nil
        }

        /// Whether the caller is the one to start the request: the first `send` of a call going on.
        mutating func claimStart() -> Bool {
            guard !started, outcome == nil else { return false }
            started = true
            return true
        }

        /// Keeps the started task; `false` when the call ended meanwhile (the task must not run).
        mutating func keepTask(_ task: URLSessionDataTask) -> Bool {
            guard outcome == nil else { return false }
            self.task = task
            return true
        }

        /// The next message, else the end, else `.wait`.
        mutating func takeNext() -> Next {
            if !messages.isEmpty { return .message(messages.removeFirst()) }
            if let outcome { return .end(outcome) }
            return .wait
        }

        /// Parks the receiver until a message or the end arrives; `false` when one is here already.
        mutating func park(_ continuation: CheckedContinuation<Void, Never>) -> Bool {
            guard messages.isEmpty, outcome == nil else { return false }
            waiter = continuation
            return true
        }

        /// Bytes of the body, with the head when it is new.
        mutating func receive(_ data: Data, head: ConnectResponseHead?, expecting contentType: String) -> Wake? {
            guard outcome == nil else { return nil }
            if self.head == nil, let head {
                self.head = head
                if streaming, head.status == 200, head.contentType != contentType {
                    return end(.failed(Self.wrongContentType(head, expecting: contentType)), cancellingTask: true)
                }
            }
            guard streaming, self.head?.status == 200 else {
                body.append(contentsOf: data)
                guard body.count <= maxMessageSize else {
                    let error = RPCError(.resourceExhausted, "a response of more than \(maxMessageSize) bytes is over the limit")
                    return end(.failed(error), cancellingTask: true)
                }
                return nil
            }
            envelopes.append(data)
            var received = false
            do {
                while let envelope = try envelopes.next() {
                    if envelope.isEndOfStream { return endOfStream(envelope.payload) }
                    if envelope.isCompressed {
                        let error = RPCError(.internalError, "the server compressed a message though the call accepted no compression")
                        return end(.failed(error), cancellingTask: true)
                    }
                    messages.append(envelope.payload)
                    received = true
                }
            } catch {
                return end(.failed(error), cancellingTask: true)
            }
            guard received, let waiter else { return nil }
            self.waiter = nil
            return Wake(waiter: waiter)
        }

        /// The task finished without a transport error: the body is whole.
        mutating func complete(head: ConnectResponseHead?, expecting contentType: String) -> Wake? {
            guard outcome == nil else { return nil }
            if self.head == nil { self.head = head }
            guard let head = self.head else {
                return end(.failed(RPCError(.internalError, "URLSession ended the call without an HTTP response")))
            }
            guard head.status == 200 else {
                trailingMetadata = head.trailerMetadata
                return end(.failed(ConnectErrorBody.error(httpStatus: head.status, body: body, metadata: head.trailerMetadata, detailType: detailType)))
            }
            guard head.contentType == contentType else {
                return end(.failed(Self.wrongContentType(head, expecting: contentType)))
            }
            if streaming {
                // What HTTP/2 calls a reset without a status: nothing says how the call ended,
                // and a call that may be repeated (a Watch from its last revision) may try again.
                let problem = envelopes.holdsPartialEnvelope ? "in the middle of a message" : "without Connect's end-of-stream message"
                let error = RPCError(
                    .internalError, "the server's stream ended \(problem)", detail: ErrorDetail(reason: ErrorDetail.streamResetReason))
                return end(.failed(error))
            }
            if head.contentEncoding == "gzip", body.starts(with: [0x1F, 0x8B]) {
                return end(.failed(RPCError(.internalError, "URLSession left the gzip body of the response compressed")))
            }
            messages.append(body)
            body = []
            trailingMetadata = head.trailerMetadata
            return end(.ok)
        }

        /// The end-of-stream message: `{}`, or the error, with the trailing metadata.
        private mutating func endOfStream(_ payload: [UInt8]) -> Wake? {
            // The end-of-stream message is JSON whatever the stream's codec.
            guard let message = try? JSONCodec.shared.decode(EndOfStreamMessage.self, from: payload) else {
                return end(.failed(RPCError(.internalError, "the server's end-of-stream message is not JSON")), cancellingTask: true)
            }
            let metadata = message.trailingMetadata
            trailingMetadata = metadata
            guard let error = message.error else { return end(.ok) }
            return end(.failed(error.rpcError(fallback: .unknown, metadata: metadata, detailType: detailType)))
        }

        /// Ends the call with `outcome` unless it has ended. Drops the messages not yet taken
        /// when `discardingMessages`, and has the task cancelled when `cancellingTask`.
        mutating func end(_ outcome: Outcome, discardingMessages: Bool = false, cancellingTask: Bool = false) -> Wake? {
            guard self.outcome == nil else { return nil }
            self.outcome = outcome
            if discardingMessages { messages.removeAll() }
            if trailingMetadata == nil, case .failed(let error) = outcome { trailingMetadata = error.metadata }
            let wake = Wake(waiter: waiter, timer: timer, task: cancellingTask ? task : nil)
            waiter = nil
            timer = nil
            task = nil
            body = []
            return wake
        }

        private static func wrongContentType(_ head: ConnectResponseHead, expecting contentType: String) -> RPCError {
            RPCError(.internalError, "the response's content-type is '\(head.contentType)', not '\(contentType)'")
        }
    }
}
