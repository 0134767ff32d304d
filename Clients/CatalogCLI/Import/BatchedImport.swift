import CatalogKit

/// `category import` of many categories in requests of at most `batchSize`, so that a large
/// file fits the server's message limit and shows progress.
///
/// Each request is one transaction. A file of at most `batchSize` categories (or any file
/// with `batchSize` 0) is one request in the file's mode, all or nothing. A larger one is
/// sent in `merge` batches (a merge matches by slug, so running an interrupted import
/// again is safe), then, for `replace`, one closing `replace` request with every category
/// deletes the categories the file does not name.
package struct BatchedImport: Sendable {
    /// One request of the import.
    package struct Step: Sendable {
        package var records: [CategoryRecord]
        package var mode: ImportMode
        /// The closing `replace` of a batched import: it only deletes, the batches did the rest.
        package var isClosingReplace: Bool
    }

    package var records: [CategoryRecord]
    package var mode: ImportMode
    package var batchSize: Int

    package init(records: [CategoryRecord], mode: ImportMode, batchSize: Int) {
        self.records = records
        self.mode = mode
        self.batchSize = batchSize
    }

    /// The requests to send, in order.
    package var steps: [Step] {
        guard batchSize > 0, records.count > batchSize else {
            return [Step(records: records, mode: mode, isClosingReplace: false)]
        }
        var steps = stride(from: 0, to: records.count, by: batchSize).map { start in
            Step(records: Array(records[start..<min(start + batchSize, records.count)]), mode: .merge, isClosingReplace: false)
        }
        if mode == .replace { steps.append(Step(records: records, mode: .replace, isClosingReplace: true)) }
        return steps
    }

    /// Sends the requests in order and adds up their counts; `progress` is called after each
    /// batch with the number of the file's categories imported so far.
    ///
    /// - Throws: The first `RPCError`; the batches before it stay applied.
    package func run(
        client: CatalogClient,
        options: CallOptions,
        progress: (Int) -> Void
    ) async throws -> ImportCategoriesResponse {
        var total = ImportCategoriesResponse(created: 0, updated: 0, unchanged: 0, deleted: 0)
        var done = 0
        for step in steps {
            let response = try await client.categories.import(step.records, mode: step.mode, options: options)
            total.deleted += response.deleted
            guard !step.isClosingReplace else { continue }
            total.created += response.created
            total.updated += response.updated
            total.unchanged += response.unchanged
            done += step.records.count
            progress(done)
        }
        return total
    }
}
