import RPCCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A request's header block as nghttp2 hands it over, field by field, kept as `RequestValidation`
/// reads it: the fields of the protocol, recognized by their bytes, and the caller's metadata.
/// No string is made of a field nobody reads, and the values every client sends (its content
/// type, the path and the metadata of its previous call) reuse strings already made.
///
/// Sizes are counted as RFC 9113 says, to enforce SETTINGS_MAX_HEADER_LIST_SIZE (nghttp2 does
/// not): past the limit everything is dropped and `overflowed` remembers it.
package struct RequestHeaders {
    let limit: Int
    private(set) var size = 0
    package private(set) var overflowed = false
    private(set) var method: String?
    package private(set) var path: String?
    package private(set) var contentType: String?
    private(set) var encoding: String?
    private(set) var acceptEncoding: String?
    private(set) var timeout: String?
    /// Connect's fields, HTTP's codings and CORS's origin, made when the first of them arrives:
    /// a gRPC request has none, and carries no room for them.
    private var http: HTTPFields?
    var connectVersion: String? { http?.connectVersion }
    var connectTimeout: String? { http?.connectTimeout }
    var contentEncoding: String? { http?.contentEncoding }
    var httpAcceptEncoding: String? { http?.acceptEncoding }
    var connectContentEncoding: String? { http?.connectContentEncoding }
    var connectAcceptEncoding: String? { http?.connectAcceptEncoding }
    /// A browser's `origin`, for CORS.
    var origin: String? { http?.origin }

    /// The fields of Connect and plain HTTP that a request may carry: `connect-protocol-version`,
    /// `connect-timeout-ms`, the HTTP and Connect streaming codings, and `origin`. Written only
    /// while the header block arrives, by the one `RequestHeaders` that made it.
    final class HTTPFields {
        var connectVersion: String?
        var connectTimeout: String?
        var contentEncoding: String?
        var acceptEncoding: String?
        var connectContentEncoding: String?
        var connectAcceptEncoding: String?
        var origin: String?
    }

    private mutating func httpFields() -> HTTPFields {
        if let http { return http }
        let made = HTTPFields()
        http = made
        return made
    }
    /// Every field that is not reserved to the protocol (`Metadata.addReceived`).
    var metadata: Metadata {
        if diverged { return ownMetadata }
        let repeated = repeatedCount == recent.metadata.count ? recent.metadata : Array(recent.metadata.prefix(repeatedCount))
        return Metadata(entries: repeated)
    }
    /// How many of the previous request's metadata entries this one repeats before it
    /// diverges: they are shared, not copied, while it has not.
    private var repeatedCount = 0
    private var diverged = false
    /// The metadata once it diverged from the previous request's.
    private var ownMetadata = Metadata()
    /// The connection's previous request, whose strings repeated fields reuse.
    private let recent: Recent

    /// What a connection keeps of its previous request.
    package struct Recent {
        var path: String?
        var metadata: [Metadata.Entry] = []
    }

    init(limit: Int, recent: Recent = Recent()) {
        self.limit = limit
        self.recent = recent
    }

    /// What the next request on the connection may reuse of this one.
    package var reusable: Recent { Recent(path: path, metadata: metadata.entries) }

    /// Appends a field a front end has as text (HTTP/1.1's decoder, an in-process call).
    package mutating func append(name: String, value: String) {
        var name = name
        var value = value
        name.withUTF8 { name in
            value.withUTF8 { value in append(name: UnsafeRawBufferPointer(name), value: UnsafeRawBufferPointer(value)) }
        }
    }

    package mutating func append(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
        size += name.count + value.count + 32
        guard size <= limit else {
            self = RequestHeaders(limit: limit)
            size = limit + 1
            overflowed = true
            return
        }
        if Self.equal(name, ":path") {
            if path == nil { path = Self.reuse(recent.path, for: value) ?? Self.string(value) }
        } else if Self.equal(name, ":method") {
            if method == nil { method = Self.string(value) }
        } else if Self.equal(name, "content-type") {
            if contentType == nil {
                contentType = Self.reuse(ContentType.grpcJSON.headerValue, for: value)
                    ?? Self.reuse(ContentType.grpc.headerValue, for: value) ?? Self.knownContentType(value) ?? Self.string(value)
            }
        } else if Self.equal(name, "grpc-timeout") {
            if timeout == nil { timeout = Self.string(value) }
        } else if Self.equal(name, "grpc-encoding") {
            if encoding == nil { encoding = Self.string(value) }
        } else if Self.equal(name, "grpc-accept-encoding") {
            if acceptEncoding == nil { acceptEncoding = Self.string(value) }
        } else if name.first == UInt8(ascii: ":") {
            return
        } else if name.first == UInt8(ascii: "c") || name.first == UInt8(ascii: "a") || name.first == UInt8(ascii: "o"),
            appendHTTPField(name: name, value: value)
        {
            return
        } else {
            addMetadata(name: name, value: value)
        }
    }

    /// Keeps a field of Connect or of HTTP content coding; `false` when `name` is none of them.
    private mutating func appendHTTPField(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) -> Bool {
        if Self.equal(name, "connect-protocol-version") {
            let fields = httpFields()
            if fields.connectVersion == nil { fields.connectVersion = Self.string(value) }
        } else if Self.equal(name, "connect-timeout-ms") {
            let fields = httpFields()
            if fields.connectTimeout == nil { fields.connectTimeout = Self.string(value) }
        } else if Self.equal(name, "content-encoding") {
            let fields = httpFields()
            if fields.contentEncoding == nil { fields.contentEncoding = Self.string(value) }
        } else if Self.equal(name, "accept-encoding") {
            let fields = httpFields()
            if fields.acceptEncoding == nil { fields.acceptEncoding = Self.string(value) }
        } else if Self.equal(name, "connect-content-encoding") {
            let fields = httpFields()
            if fields.connectContentEncoding == nil { fields.connectContentEncoding = Self.string(value) }
        } else if Self.equal(name, "connect-accept-encoding") {
            let fields = httpFields()
            if fields.connectAcceptEncoding == nil { fields.connectAcceptEncoding = Self.string(value) }
        } else if Self.equal(name, "origin") {
            let fields = httpFields()
            if fields.origin == nil { fields.origin = Self.string(value) }
        } else {
            return false
        }
        return true
    }

    /// Adds a metadata field: the previous request's entry at the same place when it is the
    /// same text field (clients repeat theirs, in the same order), or else a new one.
    private mutating func addMetadata(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
        guard !Metadata.isReserved(utf8: name) else { return }  // `te`, which every gRPC client sends
        let index = diverged ? ownMetadata.count : repeatedCount
        if index < recent.metadata.count {
            let entry = recent.metadata[index]
            if case .string(let text) = entry.value, Self.reuse(entry.key, for: name) != nil, Self.reuse(text, for: value) != nil {
                if diverged { ownMetadata.append(entry) } else { repeatedCount += 1 }
                return
            }
        }
        if !diverged {
            diverged = true
            ownMetadata = Metadata(entries: Array(recent.metadata.prefix(repeatedCount)))
        }
        ownMetadata.addReceived(Self.string(name), Self.string(value))
    }

    /// The content types clients send, whose strings are reused rather than made per request.
    private static let knownContentTypes = ContentType.everyProtocol.map(\.headerValue)

    /// The known content type that `value` holds, if it holds one.
    private static func knownContentType(_ value: UnsafeRawBufferPointer) -> String? {
        for known in knownContentTypes {
            if let reused = reuse(known, for: value) { return reused }
        }
        return nil
    }

    private static func equal(_ bytes: UnsafeRawBufferPointer, _ literal: StaticString) -> Bool {
        bytes.count == literal.utf8CodeUnitCount && (bytes.count == 0 || memcmp(bytes.baseAddress!, literal.utf8Start, bytes.count) == 0)
    }

    private static func string(_ bytes: UnsafeRawBufferPointer) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// `known` when it holds exactly `bytes`.
    private static func reuse(_ known: String?, for bytes: UnsafeRawBufferPointer) -> String? {
        guard var known, known.utf8.count == bytes.count else { return nil }
        let same = known.withUTF8 { bytes.count == 0 || memcmp(bytes.baseAddress!, $0.baseAddress!, bytes.count) == 0 }
        return same ? known : nil
    }
}
