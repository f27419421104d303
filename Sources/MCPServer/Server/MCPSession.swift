import ContinuityKit

/// The state of one client connection: lifecycle phase, negotiated revision, requests in
/// flight and requests the server is waiting on. See ``MCPServer`` for the behaviour.
actor MCPSession {
  enum Phase {
    /// No `initialize` yet: only `initialize` and `ping` are served.
    case awaitingInitialize
    /// `initialize` answered; waiting for `notifications/initialized`.
    case initialized
    /// `notifications/initialized` received: the server may send requests.
    case ready
  }

  /// The methods served; anything else is -32601.
  enum Method {
    case initialize, ping
    case toolsList, toolsCall
    case resourcesList, resourceTemplatesList, resourcesRead
    case promptsList, promptsGet
  }

  let server: MCPServer
  let transport: any MCPTransport
  var phase = Phase.awaitingInitialize
  var protocolVersion = MCPProtocolVersion.latest
  var clientCapabilities = JSONObject()
  var clientInfo = JSONObject()

  /// Client requests being handled, by id.
  private var inFlight: [JSONRPCRequestID: Task<Void, Never>] = [:]
  /// In-flight requests the client cancelled: their responses are dropped.
  private var cancelled: Set<JSONRPCRequestID> = []
  /// Requests whose id is released and whose response is being written, by a number of their
  /// own: `run()` waits for them as for those in flight.
  private var answering: [Int: Task<Void, Never>] = [:]
  private var lastAnswering = 0
  /// Server requests awaiting the client's response, by the id we gave them.
  private var awaitingClient: [JSONRPCRequestID: CheckedContinuation<JSONValue, any Error>] = [:]
  private var lastOutboundID = 0
  private var inputClosed = false
  /// Batches (MCP 2025-03-26) whose responses are being gathered, by ``ReplyTarget`` batch
  /// number.
  private var batches: [Int: PendingBatch] = [:]
  private var lastBatch = 0
  /// The ids of the requests of each batch still being answered, by batch number: until the
  /// batch's line is sent, the client is still waiting for their responses, so a request that
  /// reuses one of them is refused (``isInProgress(_:)``).
  private var batchRequestIDs: [Int: Set<JSONRPCRequestID>] = [:]
  /// Ignored messages so far (``logIgnored(_:)``).
  private var ignoredMessages = 0
  /// Set by the first send that fails (the client closed its end of the output, `EPIPE`): no
  /// message read after it is handled, since its answer could never arrive, and a tool that
  /// writes must not run for a client that is gone.
  private var outputClosed = false
  /// Why the output stopped taking messages, once it did: the failed send's error, or the
  /// closed output seen before a message was handled. ``run()`` returns it, so that `dolphin
  /// mcp` can exit non-zero after a broken transport (review 29a, 7).
  private var outputFailure: String?

  init(server: MCPServer, transport: any MCPTransport) {
    self.server = server
    self.transport = transport
  }

  func log(_ line: String) {
    server.configuration.log(MCPServer.logLine("dolphin mcp: \(line)"))
  }

  /// Logs a message from the client that the server ignores (a response to no request of
  /// ours, a malformed one, a blank line): the first ``ignoredMessagesLogged`` of a session,
  /// then one line saying that further ones go unlogged. What a client sends cannot make the
  /// log grow without bound (review 19-a: a client that never read standard error, sent 2,000
  /// stray responses, filled the pipe, and the server blocked writing to it).
  func logIgnored(_ line: String) {
    ignoredMessages += 1
    if ignoredMessages <= Self.ignoredMessagesLogged {
      log(line)
    } else if ignoredMessages == Self.ignoredMessagesLogged + 1 {
      log("ignored more messages; further ignored messages of this session are not logged")
    }
  }

  /// How many ignored messages a session logs (``logIgnored(_:)``).
  static let ignoredMessagesLogged = 100

  // MARK: The read loop

  /// Serves until the input ends and the calls in flight are answered.
  /// - Returns: why the output stopped taking messages, or nil when every message could be
  ///   written (a clean end of input).
  func run() async -> String? {
    for await frame in transport.inbound() {
      if !outputClosed && transport.outputIsClosed() {
        outputClosed = true
        outputFailure = "the client closed the server's output"
        log("the client closed the output; no further message is handled, and the server stops once calls in flight end")
      }
      guard !outputClosed else { break }
      await receive(frame)
    }
    inputClosed = true
    let waiting = awaitingClient
    awaitingClient = [:]
    for continuation in waiting.values {
      continuation.resume(throwing: MCPServerError.transportClosed)
    }
    // Calls in flight are still answered: a scripted client may close stdin before reading.
    while let task = inFlight.values.first ?? answering.values.first {
      await task.value
    }
    return outputFailure
  }

  private func receive(_ frame: TransportFrame) async {
    let limits = server.configuration.limits
    let inbound: JSONRPCInbound
    switch frame {
    case .oversized(let size, let head):
      // Answered under its id when its first bytes hold it (review 22, 4).
      inbound = .rejected(
        .error(
          .messageTooLarge(size: size, limit: limits.maximumMessageBytes),
          id: JSONRPCMessage.requestID(inStartOf: head)))
    case .message(let bytes):
      inbound = JSONRPCMessage.decode(
        bytes, limits: limits, acceptsBatches: phase != .awaitingInitialize && protocolVersion.acceptsBatches)
    }
    if case .batch(let items) = inbound {
      await receive(batch: items)
      return
    }
    await receive(inbound, replyTo: .line)
  }

  /// Handles one message, alone on its line or from a batch; its response goes to `target`.
  private func receive(_ inbound: JSONRPCInbound, replyTo target: ReplyTarget) async {
    switch inbound {
    case .rejected(let response):
      await reply(response, to: target)
    case .batch:
      // Never produced for an element: a nested array is refused as not an object.
      break
    case .ignored(let reason):
      logIgnored("ignored a message: \(reason)")
    case .malformedResponse(let id, let reason):
      // Never answered (JSON-RPC answers no response), but a call waiting on this id would
      // otherwise wait for an answer that already came.
      guard let continuation = awaitingClient.removeValue(forKey: id) else {
        logIgnored("ignored a malformed response to an unknown request id \(id): \(reason)")
        return
      }
      continuation.resume(throwing: MCPServerError.invalidClientResponse(reason))
    case .message(.request(let request)):
      await handle(request, replyTo: target)
    case .message(.notification(let notification)):
      handle(notification)
    case .message(.response(let response)):
      handle(response)
    }
  }

  // MARK: Client requests

  /// Whether a request with `id` is still waiting for its response: one running in its own
  /// task, or one of a batch whose line is not sent yet.
  private func isInProgress(_ id: JSONRPCRequestID) -> Bool {
    inFlight[id] != nil || batchRequestIDs.values.contains { $0.contains(id) }
  }

  private func route(_ method: String) -> Method? {
    switch method {
    case "initialize": .initialize
    case "ping": .ping
    case "tools/list" where server.tools != nil: .toolsList
    case "tools/call" where server.tools != nil: .toolsCall
    case "resources/list" where server.resources != nil: .resourcesList
    case "resources/templates/list" where server.resources != nil: .resourceTemplatesList
    case "resources/read" where server.resources != nil: .resourcesRead
    case "prompts/list" where server.prompts != nil: .promptsList
    case "prompts/get" where server.prompts != nil: .promptsGet
    default: nil
    }
  }

  private func handle(_ request: JSONRPCRequest, replyTo target: ReplyTarget) async {
    // MCP Base Protocol › Requests: "The request ID MUST NOT have been previously used by the
    // requestor within the same session." An id still in flight is refused before any method
    // is served, `ping` included, so the client never gets two responses with one id (review
    // 28-a, 3: a `ping` reusing the id of a call waiting for approval was answered, and so was
    // the call later; two requests of one batch with one id were both answered).
    if isInProgress(request.id) {
      let error = JSONRPCError.invalidRequest(
        "the id \(request.id) belongs to a request still in progress; use a new id for each request"
      )
      await reply(.error(error, id: request.id), to: target)
      return
    }
    if case .batch(let number, _) = target { batchRequestIDs[number, default: []].insert(request.id) }
    guard let method = route(request.method) else {
      await reply(.error(.methodNotFound(request.method), id: request.id), to: target)
      return
    }
    switch method {
    case .initialize:
      if case .batch = target {
        // MCP 2025-03-26 › Lifecycle: "The initialization request MUST NOT be part of a
        // JSON-RPC batch". Batches are read only after initialize, so this is a second one.
        let error = JSONRPCError.invalidRequest("initialize must not be part of a JSON-RPC batch")
        await reply(.error(error, id: request.id), to: target)
        return
      }
      await reply(initialize(request), to: target)
      return
    case .ping:
      // MCP Utilities › Ping: "The receiver MUST respond promptly with an empty response."
      await reply(.result([:], id: request.id), to: target)
      return
    default:
      break
    }
    guard phase != .awaitingInitialize else {
      let error = JSONRPCError.invalidRequest(
        "\(request.method) was sent before initialize; send initialize (then notifications/initialized) first"
      )
      await reply(.error(error, id: request.id), to: target)
      return
    }
    inFlight[request.id] = Task { await self.perform(method, request, replyTo: target) }
  }

  /// Handles one request in its own task and sends its response, unless it was cancelled.
  private func perform(_ method: Method, _ request: JSONRPCRequest, replyTo target: ReplyTarget) async {
    let outcome: Result<JSONValue, JSONRPCError>
    do {
      outcome = .success(try await respond(method, request))
    } catch {
      outcome = .failure(jsonRPCError(for: error, method: request.method))
    }
    // The id is released before the response is written: a client may send its next request
    // with the same id as soon as it reads this answer, and writing suspends this actor, so a
    // release after the write refused such a request as "still in progress" at random
    // (review, s17: 80 of 100 reuses). `answering` keeps the task, so that `run()` (which waits
    // for the calls in flight once the input ends) cannot return before the response is sent.
    // A cancellation arriving from here on names a finished request and is ignored.
    let wasCancelled = cancelled.remove(request.id) != nil
    var token: Int?
    if let task = inFlight.removeValue(forKey: request.id) {
      lastAnswering += 1
      token = lastAnswering
      answering[lastAnswering] = task
    }
    defer { if let token { answering[token] = nil } }
    if wasCancelled {
      // MCP Utilities › Cancellation: the receiver SHOULD NOT send a response.
      await reply(nil, to: target)
      return
    }
    // Serialized once, to be measured and then sent: no response passes the bound on a line
    // (review 19-a: one of 36 MB, where the server accepts 4 MiB).
    var response = JSONRPCResponse(id: request.id, outcome: outcome)
    var bytes = JSONRPCMessage.response(response).serialized()
    let bound = server.configuration.limits.maximumResponseBytes
    if bytes.count > bound, case .success = outcome {
      log(
        "the response to \(request.method) id \(request.id) would be \(bytes.count) bytes, over the \(bound)-byte bound; "
          + "an error was sent instead")
      response = JSONRPCResponse(id: request.id, outcome: oversized(method, request, size: bytes.count, bound: bound))
      bytes = JSONRPCMessage.response(response).serialized()
    }
    await reply(response, serialized: bytes, answering: (method, request), to: target)
  }

  /// The answer to `request` in place of a result whose response would be `size` bytes, over
  /// `bound` (``JSONRPCLimits/maximumResponseBytes``): for a tool call, an `isError` result
  /// saying that the call ran but its result was withheld (a tool that lists records cuts its
  /// own list to fit, so only a single record larger than the bound gets here); for any other
  /// request, a -32603 error with `data.size` and `data.limit`. With `inBatch`, the response
  /// itself was within the bound but the line answering its batch had no room left for it.
  private func oversized(_ method: Method, _ request: JSONRPCRequest, size: Int, bound: Int, inBatch: Bool = false)
    -> Result<JSONValue, JSONRPCError>
  {
    let over =
      inBatch
      ? "the response would be \(size) bytes, more than was left of the \(bound)-byte bound on the one line that answers "
        + "its JSON-RPC batch after the batch's earlier responses; send the request alone or in a smaller batch"
      : "the response would be \(size) bytes, over the \(bound)-byte bound on one response"
    guard method == .toolsCall else {
      return .failure(
        JSONRPCError(
          code: JSONRPCError.Code.internalError, message: "\(request.method) was not answered: \(over)",
          data: ["size": .integer(size), "limit": .integer(bound)]))
    }
    let name = MCPServerError.quoted(request.params["name"]?.string ?? "the tool")
    return .success(
      MCPToolResult.error(
        "\(name) ran, but its result was not sent: \(over). The call itself took effect (a tool that writes made its "
          + "change); only its result was withheld.",
        structuredContent: [
          "error": ["kind": "responseTooLarge", "message": .string(over), "size": .integer(size), "limit": .integer(bound)]
        ]
      ).wireValue(protocolVersion))
  }

  // MARK: Batches (MCP 2025-03-26)

  /// Where a request's response goes: its own line, or the response array of a batch.
  enum ReplyTarget {
    case line
    /// Batch number, and the request's place in it (responses keep the batch's order).
    case batch(Int, index: Int)
  }

  /// The responses of one batch gathered so far, and how many are still to come.
  struct PendingBatch {
    var remaining: Int
    var responses: [BatchEntry] = []
  }

  /// One response of a batch, as it will be sent.
  struct BatchEntry {
    /// The request's place in the batch.
    var index: Int
    var response: JSONRPCResponse
    /// Its JSON text.
    var bytes: [UInt8]
    /// The request it answers and its method, for a request that was served (nil for an
    /// element refused as it was read): what its stand-in is made of when the batch's line has
    /// no room for it (``batchLine(_:)``).
    var answering: (method: Method, request: JSONRPCRequest)?
  }

  /// Handles a JSON-RPC batch: each element as if it came on a line of its own, in order, and
  /// one line holding the array of their responses once every request in it is answered
  /// (JSON-RPC 2.0 §6). Notifications and responses from the client get no entry; a batch of
  /// only those gets no line at all. A cancelled request's entry is left out.
  private func receive(batch items: [JSONRPCInbound]) async {
    lastBatch += 1
    let number = lastBatch
    let answered = items.count { item in
      switch item {
      case .rejected, .message(.request): true
      default: false
      }
    }
    if answered > 0 { batches[number] = PendingBatch(remaining: answered) }
    for (index, item) in items.enumerated() {
      await receive(item, replyTo: .batch(number, index: index))
    }
  }

  /// Sends `response` (nil: a cancelled request's, which is not sent) to `target`: at once on
  /// its own line (`serialized`, when given, is its JSON text), or into its batch, whose array
  /// is sent when the last response arrives (``batchLine(_:)``). `answering` names the request
  /// and its method when the response answers a served request.
  private func reply(
    _ response: JSONRPCResponse?, serialized: [UInt8]? = nil, answering: (method: Method, request: JSONRPCRequest)? = nil,
    to target: ReplyTarget
  ) async {
    switch target {
    case .line:
      if let serialized {
        await send(bytes: serialized)
      } else if let response {
        await send(.response(response))
      }
    case .batch(let number, let index):
      // Changed in place: a copy taken out of the dictionary and put back would copy every
      // response held so far on each append (review 19-a: a batch of 20,000 took 22 s).
      guard batches[number] != nil else { return }
      if let response {
        let bytes = serialized ?? JSONRPCMessage.response(response).serialized()
        batches[number]?.responses.append(BatchEntry(index: index, response: response, bytes: bytes, answering: answering))
      }
      batches[number]?.remaining -= 1
      guard let batch = batches[number], batch.remaining == 0 else { return }
      batches[number] = nil
      batchRequestIDs[number] = nil
      guard !batch.responses.isEmpty else { return }
      await send(bytes: batchLine(batch.responses.sorted { $0.index < $1.index }))
    }
  }

  /// The one line answering a batch: the array of its responses, in batch order, held to
  /// ``JSONRPCLimits/maximumResponseBytes`` as a single response is.
  ///
  /// When the responses do not fit together, they are kept whole in batch order while the line
  /// still fits with a stand-in for every later one; each response that does not fit is
  /// replaced by its stand-in, made as for a single response over the bound: a tool call's is
  /// an `isError` result saying the call ran and its result was withheld, any other request's a
  /// -32603 error with `data.size` and `data.limit`. Errors stay as they are (each is small
  /// but for the id it echoes: a batch whose ids alone nearly fill the message bound can still
  /// pass the bound, the one exception, as for a single error response).
  /// - Parameter entries: the batch's responses, in batch order.
  /// - Returns: the line's JSON text (without its newline).
  private func batchLine(_ entries: [BatchEntry]) -> [UInt8] {
    let bound = server.configuration.limits.maximumResponseBytes
    // `[`, `]` and a comma between two responses.
    let framing = 2 + max(0, entries.count - 1)
    var chosen = entries.map(\.bytes)
    let whole = framing + chosen.reduce(0) { $0 + $1.count }
    if whole > bound {
      let standIns = entries.map { entry -> [UInt8] in
        guard let (method, request) = entry.answering, case .success = entry.response.outcome else { return entry.bytes }
        let standIn = JSONRPCMessage.response(
          JSONRPCResponse(
            id: request.id, outcome: oversized(method, request, size: entry.bytes.count, bound: bound, inBatch: true))
        ).serialized()
        return standIn.count < entry.bytes.count ? standIn : entry.bytes
      }
      // The line's size with every response from here on a stand-in.
      var size = framing + standIns.reduce(0) { $0 + $1.count }
      var replaced = 0
      for i in entries.indices {
        let grown = size - standIns[i].count + entries[i].bytes.count
        if grown <= bound {
          size = grown
        } else {
          chosen[i] = standIns[i]
          if standIns[i] != entries[i].bytes { replaced += 1 }
        }
      }
      log(
        "the line answering a batch of \(entries.count) response(s) would be \(whole) bytes, over the \(bound)-byte bound; "
          + "\(replaced) of them were sent as errors saying so (\(size) bytes sent)")
    }
    var line: [UInt8] = [UInt8(ascii: "[")]
    line.reserveCapacity(framing + chosen.reduce(0) { $0 + $1.count })
    for (i, bytes) in chosen.enumerated() {
      if i > 0 { line.append(UInt8(ascii: ",")) }
      line += bytes
    }
    line.append(UInt8(ascii: "]"))
    return line
  }

  private func respond(_ method: Method, _ request: JSONRPCRequest) async throws -> JSONValue {
    switch method {
    case .initialize, .ping: [:]  // answered inline in handle(_:)
    case .toolsList: try await listTools(request.params)
    case .toolsCall: try await callTool(request)
    case .resourcesList: try await listResources(request.params)
    case .resourceTemplatesList: try await listResourceTemplates(request.params)
    case .resourcesRead: try await readResource(request.params)
    case .promptsList: try await listPrompts(request.params)
    case .promptsGet: try await getPrompt(request.params)
    }
  }

  private func jsonRPCError(for error: any Error, method: String) -> JSONRPCError {
    if let error = error as? JSONRPCError { return error }
    if let error = error as? MCPServerError, let mapped = error.jsonRPCError { return mapped }
    return .internalError("\(method) failed: \(error)")
  }

  // MARK: Notifications and responses from the client

  private func handle(_ notification: JSONRPCNotification) {
    switch notification.method {
    case "notifications/initialized":
      if phase == .initialized { phase = .ready }
    case "notifications/cancelled":
      // Unknown or finished ids are ignored, as the spec allows (the response may have crossed).
      guard let value = notification.params["requestId"], let id = JSONRPCRequestID(value),
        let task = inFlight[id]
      else { return }
      cancelled.insert(id)
      task.cancel()
    default:
      // A request's method sent without an id is a notification: it is never answered, so it
      // is not run (a tool call's result could reach no one), and it is logged (review 28-a,
      // 4: a `tools/call` without an id vanished without a trace), bounded as every ignored
      // message is. Other notifications (roots/list_changed, progress, …) need nothing from us.
      if route(notification.method) != nil {
        logIgnored(
          "ignored a \(notification.method) message without an id: without an id it is a "
            + "notification, which gets no response, so it was not run; send it as a request, with an id")
      }
    }
  }

  private func handle(_ response: JSONRPCResponse) {
    guard let id = response.id, let continuation = awaitingClient.removeValue(forKey: id) else {
      // Bounded before it is serialized: only the start of a large answer can be logged.
      logIgnored(
        "ignored a response to an unknown request id \(response.id?.description ?? "null"): "
          + Self.excerpt(JSONRPCMessage.response(response).jsonValue))
      return
    }
    switch response.outcome {
    case .success(let result): continuation.resume(returning: result)
    case .failure(let error): continuation.resume(throwing: MCPServerError.clientError(error))
    }
  }

  /// The start of `message` as JSON text, for a log line: at most ``MCPServer/logLineLimit``
  /// characters (a longer one ends with ``Truncation/marker``).
  static func excerpt(_ message: JSONValue) -> String {
    Truncation.truncate(message.jsonString(), to: MCPServer.logLineLimit)
  }

  // MARK: Sending

  func send(_ message: JSONRPCMessage) async {
    await send(bytes: message.serialized())
  }

  /// Writes one line (a message, or a batch's response array).
  private func send(bytes: [UInt8]) async {
    guard !outputClosed else { return }
    do {
      try await transport.send(bytes)
    } catch {
      outputClosed = true
      outputFailure = "could not send a message: \(error)"
      log("could not send a message: \(error); no further message is handled, and the server stops once calls in flight end")
    }
  }

  /// Sends a request to the client and waits for its result.
  ///
  /// - Throws: ``MCPServerError/clientError(_:)``, ``MCPServerError/transportClosed``,
  ///   ``MCPServerError/transport(_:)``, or `CancellationError` when the calling task is
  ///   cancelled (the client then gets `notifications/cancelled` for the request).
  func requestFromClient(_ method: String, params: JSONObject) async throws -> JSONValue {
    guard !inputClosed else { throw MCPServerError.transportClosed }
    lastOutboundID += 1
    let id = JSONRPCRequestID(lastOutboundID)
    let message = JSONRPCMessage.request(JSONRPCRequest(id: id, method: method, params: params))
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<JSONValue, any Error>) in
        // Registered before sending, so that the response cannot arrive unexpected.
        guard !Task.isCancelled else {
          continuation.resume(throwing: CancellationError())
          return
        }
        awaitingClient[id] = continuation
        Task { await self.transmit(message, id: id) }
        let timeout = server.configuration.clientRequestTimeout
        Task {
          try? await Task.sleep(for: timeout)
          await self.expire(id, after: timeout)
        }
      }
    } onCancel: {
      Task { await self.abandon(id) }
    }
  }

  private func transmit(_ message: JSONRPCMessage, id: JSONRPCRequestID) async {
    do {
      try await transport.send(message.serialized())
    } catch {
      awaitingClient.removeValue(forKey: id)?.resume(throwing: MCPServerError.transport("\(error)"))
    }
  }

  /// Fails the call still waiting for the client's answer to `id`, if any, and tells the
  /// client that the request is abandoned.
  private func expire(_ id: JSONRPCRequestID, after timeout: Duration) async {
    guard let continuation = awaitingClient.removeValue(forKey: id) else { return }
    let error = MCPServerError.clientTimeout(after: timeout)
    continuation.resume(throwing: error)
    log("request \(id): \(error); the waiting call failed")
    let notice = JSONRPCNotification(
      method: "notifications/cancelled",
      params: ["requestId": id.jsonValue, "reason": .string(error.description)])
    await send(.notification(notice))
  }

  /// Stops waiting for the client's answer to `id` and tells the client so.
  private func abandon(_ id: JSONRPCRequestID) async {
    guard let continuation = awaitingClient.removeValue(forKey: id) else { return }
    continuation.resume(throwing: CancellationError())
    let notice = JSONRPCNotification(
      method: "notifications/cancelled",
      params: [
        "requestId": id.jsonValue, "reason": "the tool call waiting for this answer was cancelled",
      ])
    await send(.notification(notice))
  }
}
