import CatalogKit

// What the examples leave to the reader: tokens, and a place to show a filter's state.

let token = "a reader's token"
let readerToken = token
let adminToken = "an admin's token"

func render(_ state: FilterState) {}
