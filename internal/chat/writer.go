package chat

// Writer receives an answer: a streamed request gets WriteChunk calls, a non-streamed one a
// single WriteCompletion. The pipeline's ResponseWriter is one; so is whatever a DC client or a
// local runtime client relays into.
type Writer interface {
	WriteChunk(*Chunk) error
	WriteCompletion(*Completion) error
}
