import Vapor

extension StudyExport {
    /// The export as a streamed download: the body is written while the responses are read, so the
    /// first bytes leave at once and no export holds a study in memory. Call `prepare` first (in the
    /// route), so a bad request is answered with an error status rather than a broken download.
    ///
    /// ```swift
    /// let export = try await StudyExport.prepare(request, on: req.db)
    /// return export.response(logger: req.logger)
    /// ```
    public func response(logger: Logger? = nil) -> Response {
        var headers = HTTPHeaders()
        headers.replaceOrAdd(name: .contentType, value: request.format.contentType)
        headers.replaceOrAdd(name: .contentDisposition, value: "attachment; filename=\"\(fileName)\"")
        headers.replaceOrAdd(name: .cacheControl, value: "no-store")
        let export = self
        let body = Response.Body(managedAsyncStream: { writer in
            do {
                try await export.write { chunk in try await writer.writeBuffer(chunk) }
            } catch {
                logger?.error("Export of study “\(export.request.study)” failed: \(String(describing: error))")
                throw error
            }
        })
        return Response(status: .ok, headers: headers, body: body)
    }
}
