/// The web console: plain HTML, CSS and ES modules, shipped inside the binary, that show the
/// catalog as the apps do and call the service by Connect from the page.
public enum CatalogConsole {
    /// A file of the console and the path it is served at.
    public struct File: Sendable {
        /// `/` for the page; `/console/NAME` for the rest.
        public let path: String
        public let contentType: String
        public let body: [UInt8]
    }

    /// Every file of the console.
    public static let files: [File] = EmbeddedFiles.all.map { name, text in
        File(path: name == "index.html" ? "/" : "/console/\(name)", contentType: contentType(of: name), body: Array(text.utf8))
    }

    /// The page may load its own scripts, styles and images and call its own origin, and
    /// nothing else: no inline script or style, no other origin, no framing.
    public static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    /// The fields every file is served with.
    public static let headerFields: [(name: String, value: String)] = [
        ("content-security-policy", contentSecurityPolicy), ("referrer-policy", "no-referrer"),
        ("x-frame-options", "DENY"),
    ]

    static func contentType(of name: String) -> String {
        switch name.split(separator: ".").last {
        case "html": "text/html; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "svg": "image/svg+xml"
        case "json": "application/json"
        default: "text/plain; charset=utf-8"
        }
    }
}
