import RPCCore

/// The state of a client's connections and the streams that follow it: each stream starts
/// with the state of the moment, then gets every change, and ends at `.shutdown`.
typealias ConnectionStateBroadcast = ValueBroadcast<ConnectionState>

extension ValueBroadcast where Value == ConnectionState {
    /// Records `state` and hands it to every stream; repeats of the current state are dropped,
    /// and `.shutdown` is the last.
    func publish(_ state: ConnectionState) {
        publish(state, finishing: state == .shutdown)
    }
}
