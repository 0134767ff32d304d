import RPCCore

// A filter write is on the path from a change to its subscribers: its request is read without
// Foundation's decoder (which took a tenth of the writing event loop's time).

extension FilterIDRequest: JSONReadable {
    package init?(json reader: inout JSONReader) {
        var filterId: String?
        let read = reader.readObject { reader, key in
            guard key == "filterId", filterId == nil, let value = reader.string() else { return false }
            filterId = value
            return true
        }
        guard read, let filterId else { return nil }
        self.init(filterId: filterId)
    }
}

extension SelectFilterRequest: JSONReadable {
    package init?(json reader: inout JSONReader) {
        var filterId: String?
        var optionId: Int64?
        var toggle: Bool?
        let read = reader.readObject { reader, key in
            switch key {
            case "filterId" where filterId == nil:
                filterId = reader.string()
                return filterId != nil
            case "optionId" where optionId == nil:
                optionId = reader.int64()
                return optionId != nil
            case "toggle" where toggle == nil:
                toggle = reader.bool()
                return toggle != nil
            default:
                return false
            }
        }
        guard read, let filterId else { return nil }
        self.init(filterId: filterId, optionId: optionId, toggle: toggle)
    }
}

extension SetPresentationRequest: JSONReadable {
    package init?(json reader: inout JSONReader) {
        var filterId: String?
        var presentation: FilterPresentation?
        let read = reader.readObject { reader, key in
            switch key {
            case "filterId" where filterId == nil:
                filterId = reader.string()
                return filterId != nil
            case "presentation" where presentation == nil:
                presentation = reader.string().flatMap(FilterPresentation.init(rawValue:))
                return presentation != nil
            default:
                return false
            }
        }
        guard read, let filterId, let presentation else { return nil }
        self.init(filterId: filterId, presentation: presentation)
    }
}
