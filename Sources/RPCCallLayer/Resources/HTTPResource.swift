/// A file the server answers `GET` requests for at a fixed path, beside its calls, over
/// HTTP/1.1 and HTTP/2 alike: a web page, its scripts and styles.
///
/// Resources are not calls: no authorizer, call metrics or access log applies to them. Each
/// carries an `etag` made from its body, and is answered `304` to a request that names it in
/// `if-none-match`.
public struct HTTPResource: Sendable {
    /// The request path, e.g. `/` or `/console/app.js`; a query after it is ignored.
    public var path: String
    /// The `content-type` answered, e.g. `text/html; charset=utf-8`.
    public var contentType: String
    public var body: [UInt8]
    /// More response fields, e.g. `content-security-policy`; lowercase names.
    public var headerFields: [(name: String, value: String)]

    public init(path: String, contentType: String, body: [UInt8], headerFields: [(name: String, value: String)] = []) {
        self.path = path
        self.contentType = contentType
        self.body = body
        self.headerFields = headerFields
    }
}
