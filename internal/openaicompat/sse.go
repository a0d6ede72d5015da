package openaicompat

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// ErrEventTooLarge means one server-sent event exceeded the reader's limit.
var ErrEventTooLarge = errors.New("target: server-sent event too large")

// SSEReader reads the data of server-sent events (text/event-stream). Only `data:` fields matter
// for OpenAI-compatible streams; comments (": ping") and other fields are skipped.
type SSEReader struct {
	r   *bufio.Reader
	max int
	buf []byte
}

// NewSSEReader reads events of at most max bytes of data.
func NewSSEReader(r io.Reader, max int) *SSEReader {
	return &SSEReader{r: bufio.NewReaderSize(r, 32<<10), max: max}
}

// Next returns the data of the next event (multi-line data joined with "\n"). It returns io.EOF
// at the end of the stream; an event cut short by EOF is still returned.
func (s *SSEReader) Next() ([]byte, error) {
	s.buf = s.buf[:0]
	have := false
	for {
		line, err := s.readLine()
		if err != nil {
			if errors.Is(err, io.EOF) && have {
				return s.buf, nil
			}
			return nil, err
		}
		if len(line) == 0 {
			if have {
				return s.buf, nil
			}
			continue
		}
		if line[0] == ':' {
			continue
		}
		field, value, found := bytes.Cut(line, []byte(":"))
		if !found || string(field) != "data" {
			continue
		}
		value = bytes.TrimPrefix(value, []byte(" "))
		if have {
			s.buf = append(s.buf, '\n')
		}
		if len(s.buf)+len(value) > s.max {
			return nil, fmt.Errorf("%w: over %d bytes", ErrEventTooLarge, s.max)
		}
		s.buf = append(s.buf, value...)
		have = true
	}
}

// Ready reports whether the next event with data has already arrived in full, so that Next
// returns it without waiting for the network. A forwarder uses it to send events that arrived
// together in one write, and still never holds one back while waiting for more.
func (s *SSEReader) Ready() bool {
	b, _ := s.r.Peek(s.r.Buffered())
	have := false
	for {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			return false
		}
		line := bytes.TrimRight(b[:i], "\r")
		b = b[i+1:]
		switch {
		case len(line) == 0:
			if have {
				return true
			}
		case bytes.HasPrefix(line, []byte("data:")): // the only field Next keeps
			have = true
		}
	}
}

// readLine returns one line without its terminator (LF, CRLF or CR-less), bounded by max.
func (s *SSEReader) readLine() ([]byte, error) {
	var line []byte
	for {
		frag, err := s.r.ReadSlice('\n')
		if len(line)+len(frag) > s.max+2 {
			return nil, fmt.Errorf("%w: line over %d bytes", ErrEventTooLarge, s.max)
		}
		if err == bufio.ErrBufferFull {
			line = append(line, frag...)
			continue
		}
		if err != nil {
			if len(frag) > 0 || len(line) > 0 {
				return bytes.TrimRight(append(line, frag...), "\r"), nil
			}
			return nil, err
		}
		if line == nil {
			line = frag
		} else {
			line = append(line, frag...)
		}
		return bytes.TrimRight(line[:len(line)-1], "\r"), nil
	}
}
