package main

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

// The upload bar is full only once the manifest is recorded: a publish refused after its upload
// leaves it short of 100 %.
func TestUploadBarNeverFullBeforeTheManifest(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		full bool
	}{
		{"recorded", nil, true},
		{"refused after the upload", errors.New("fleet: version already published"), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			artifact := bytes.Repeat([]byte("x"), 300<<10)
			bar := newUploadBar(&out, int64(len(artifact)), 0) // every read redraws
			n, err := io.Copy(io.Discard, bar.reader(bytes.NewReader(artifact)))
			if err != nil || n != int64(len(artifact)) {
				t.Fatalf("read %d bytes, %v", n, err)
			}
			beforeDone := out.String()
			bar.done(tc.err)
			if !strings.Contains(beforeDone, "99%") || strings.Contains(beforeDone, "100%") {
				t.Fatalf("the bar was full before the manifest was recorded: %q", beforeDone)
			}
			if got := strings.Contains(out.String(), "100%"); got != tc.full {
				t.Fatalf("full bar: %v, want %v; output %q", got, tc.full, out.String())
			}
		})
	}
	// No bar where stderr is not a terminal.
	if isTerminal(&bytes.Buffer{}) {
		t.Fatal("a buffer taken for a terminal")
	}
}
