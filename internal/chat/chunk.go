package chat

import (
	"bytes"
	"encoding/json"
	"reflect"
	"unicode/utf8"
)

// DecodeChunk decodes one streamed chunk exactly as json.Unmarshal into a Chunk would (unknown
// fields kept in Extra at every level), and remembers data so that Raw can hand the same bytes
// back while nothing has changed the chunk.
//
// Why: the edge relays every chunk of every answer, and almost none need changing (no
// placeholder to put back). Decoding through the generic keep-unknown-fields path and encoding
// again was the agent's largest CPU cost at 32 concurrent streams. The common shapes are read in
// one pass here; anything unusual (escaped or case-variant keys, duplicates, wrong types,
// invalid UTF-8) takes the generic path, so the result never differs.
//
// The chunk keeps data: the caller must not change it afterwards.
func DecodeChunk(data []byte) (*Chunk, error) {
	c := new(Chunk)
	if json.Valid(data) && utf8.Valid(data) {
		if keepRaw, ok := c.decodeFast(data); ok {
			if keepRaw && bytes.IndexByte(data, '\n') < 0 && bytes.IndexByte(data, '\r') < 0 {
				// One line only: the bytes must fit in one SSE data field as they are.
				c.src = newSource(c, data)
			}
			return c, nil
		}
		*c = Chunk{}
	}
	if err := json.Unmarshal(data, c); err != nil {
		return nil, err
	}
	return c, nil
}

// Raw returns the bytes c was decoded from (by DecodeChunk), if c still says exactly what they
// say: same top-level fields, same choices with the same index, role, content and finish reason,
// and the same Extra maps. A stage that puts a value back into the content changes the chunk, and
// the chunk is then encoded again. Raw does not look inside Extra maps or tool calls: a chunk with
// tool calls or usage never keeps its bytes, and a stage must replace an Extra map, not edit it.
func (c *Chunk) Raw() ([]byte, bool) {
	if c.src == nil || !c.src.matches(c) {
		return nil, false
	}
	return c.src.raw, true
}

// source is what a decoded chunk looked like, to tell whether it still matches its bytes.
type source struct {
	raw                            []byte
	id, object, model, fingerprint string
	created                        int64
	extra                          mapID
	choices                        int
	first                          choiceView // most chunks have one choice: no extra allocation
	rest                           []choiceView
}

type choiceView struct {
	index                 int
	role, content, finish string
	hasContent, hasFinish bool
	extra, deltaExtra     mapID
}

// mapID identifies a map and its size; in-place edits of values are not seen (see Raw).
type mapID struct {
	p uintptr
	n int
}

func idOf(m Extra) mapID {
	if m == nil {
		return mapID{}
	}
	return mapID{reflect.ValueOf(m).Pointer(), len(m)}
}

func viewOf(ch *ChunkChoice) choiceView {
	v := choiceView{index: ch.Index, role: ch.Delta.Role, extra: idOf(ch.Extra), deltaExtra: idOf(ch.Delta.Extra)}
	if ch.Delta.Content != nil {
		v.content, v.hasContent = *ch.Delta.Content, true
	}
	if ch.FinishReason != nil {
		v.finish, v.hasFinish = *ch.FinishReason, true
	}
	return v
}

func newSource(c *Chunk, raw []byte) *source {
	s := &source{raw: raw, id: c.ID, object: c.Object, model: c.Model, fingerprint: c.SystemFingerprint,
		created: c.Created, extra: idOf(c.Extra), choices: len(c.Choices)}
	for i := range c.Choices {
		if i == 0 {
			s.first = viewOf(&c.Choices[0])
			continue
		}
		s.rest = append(s.rest, viewOf(&c.Choices[i]))
	}
	return s
}

func (s *source) matches(c *Chunk) bool {
	if c.ID != s.id || c.Object != s.object || c.Model != s.model || c.SystemFingerprint != s.fingerprint ||
		c.Created != s.created || c.Usage != nil || idOf(c.Extra) != s.extra {
		return false
	}
	if len(c.Choices) != s.choices {
		return false
	}
	for i := range c.Choices {
		ch := &c.Choices[i]
		if len(ch.Delta.ToolCalls) > 0 {
			return false
		}
		v := s.first
		if i > 0 {
			v = s.rest[i-1]
		}
		if viewOf(ch) != v {
			return false
		}
	}
	return true
}
