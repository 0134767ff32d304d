import RPCCore

/// A stream's received body: reassembles messages, hands them to their reader, and withholds
/// flow-control credit while the reader lags. Used on the event loop.
struct InboundBody {
    private var deframer: MessageDeframer
    private var withheldBytes = 0
    /// Messages delivered so far.
    private(set) var messageCount = 0

    /// Bytes received but not yet made into messages.
    var bufferedByteCount: Int { deframer.bufferedByteCount }

    init(_ deframer: MessageDeframer) {
        self.deframer = deframer
    }

    /// Takes body bytes and `deliver`s the messages they complete; returns the credit to give
    /// back now (none while unread messages pile up: `deliver` returns whether they do).
    /// Throws the status the call ends with.
    mutating func receive(_ bytes: UnsafeRawBufferPointer, deliver: ([UInt8]) -> Bool) throws(RPCError) -> Int {
        try deframer.append(bytes)
        var backlog = false
        while let message = try deframer.next() {
            messageCount += 1
            backlog = deliver(message) || backlog
        }
        guard backlog else { return bytes.count }
        withheldBytes += bytes.count
        return 0
    }

    /// Credit withheld while the reader was behind; called once it caught up.
    mutating func takeWithheldBytes() -> Int {
        defer { withheldBytes = 0 }
        return withheldBytes
    }

    /// Checks that the body did not end inside a message.
    func checkEndOfStream() throws(RPCError) {
        try deframer.checkEndOfStream()
    }
}
