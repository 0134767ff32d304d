import RPCCore

extension CallOptions {
    /// The bearer token sent as `authorization: Bearer <token>`; `nil` sends none.
    ///
    /// ```swift
    /// var options = CallOptions(timeout: .seconds(2))
    /// options.bearerToken = ProcessInfo.processInfo.environment["CATALOG_TOKEN"]
    /// let item = try await catalog.items.get(id: 42, options: options)
    /// ```
    public var bearerToken: String? {
        get {
            guard let value = metadata.first("authorization"), value.hasPrefix("Bearer ") else { return nil }
            return String(value.dropFirst("Bearer ".count))
        }
        set {
            if let newValue {
                metadata.replace("authorization", .string("Bearer \(newValue)"))
            } else {
                metadata.remove("authorization")
            }
        }
    }

    /// Options with a timeout of `timeout`, and nothing else set.
    public static func timeout(_ timeout: Duration) -> CallOptions {
        CallOptions(timeout: timeout)
    }

    /// Options without a deadline, even on a client whose default options have a timeout,
    /// and nothing else set.
    ///
    /// ```swift
    /// let export = try await catalog.categories.export(options: .noTimeout)
    /// ```
    public static var noTimeout: CallOptions {
        var options = CallOptions()
        options.timeLimit = .noTimeout
        return options
    }

    /// These options laid over `defaults`: this call's time limit unless it is `.inherited`,
    /// else the default's; the default metadata whose keys this call does not set, then this
    /// call's (so a per-call token replaces the default token); this call's compression unless
    /// it is identity.
    public func merged(over defaults: CallOptions) -> CallOptions {
        var metadata = Metadata()
        let ownKeys = Set(self.metadata.map(\.key))
        for entry in defaults.metadata where !ownKeys.contains(entry.key) { metadata.add(entry.key, entry.value) }
        for entry in self.metadata { metadata.add(entry.key, entry.value) }
        var merged = CallOptions(metadata: metadata, compression: compression == .identity ? defaults.compression : compression)
        merged.timeLimit = timeLimit == .inherited ? defaults.timeLimit : timeLimit
        return merged
    }
}
