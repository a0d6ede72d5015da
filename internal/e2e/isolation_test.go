package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// floodTarget streams chunks as fast as it can for model "flood" (forever) and answers any other
// model with one short chunk. It counts the bytes the flood streams got out.
type floodTarget struct {
	flooded atomic.Int64
}

func (f *floodTarget) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Model string `json:"model"`
	}
	_ = json.NewDecoder(r.Body).Decode(&req)
	w.Header().Set("Content-Type", "text/event-stream")
	chunk := func(s string) string {
		return fmt.Sprintf("data: {\"id\":\"f\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":%q,\"choices\":[{\"index\":0,\"delta\":{\"content\":%q},\"finish_reason\":null}]}\n\n", req.Model, s)
	}
	if req.Model != "flood" {
		fmt.Fprint(w, chunk("ok"), "data: [DONE]\n\n")
		return
	}
	line := chunk(strings.Repeat("x", 4000))
	rc := http.NewResponseController(w)
	for r.Context().Err() == nil {
		if _, err := fmt.Fprint(w, line); err != nil {
			return
		}
		_ = rc.Flush()
		f.flooded.Add(int64(len(line)))
	}
}

// TestSlowUserDoesNotBlockOthers: users who stop reading a fast, endless stream push back all the
// way to the target (the edge stops reading their QUIC streams, whose flow-control windows fill),
// yet other users' requests on the same edge⇄DC connection are still answered.
func TestSlowUserDoesNotBlockOthers(t *testing.T) {
	ft := &floodTarget{}
	target := httptest.NewServer(ft)
	defer target.Close()
	pkiDir := newPKI(t)
	url, a := startAgent(t, pkiDir, startGateway(t, pkiDir, target.URL+"/v1"))
	waitLink(t, a)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for range 3 {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url+"/v1/chat/completions",
			strings.NewReader(`{"model":"flood","stream":true,"messages":[{"role":"user","content":"a"}]}`))
		req.Header.Set("Content-Type", "application/json")
		resp, err := httpClient().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close() // never read: this user is stuck
	}
	// Wait until the stuck streams have stalled end to end: the target can no longer write.
	deadline := time.Now().Add(60 * time.Second)
	for last := int64(-1); ; time.Sleep(500 * time.Millisecond) {
		n := ft.flooded.Load()
		if n == last && n > 0 {
			t.Logf("the stuck streams stalled after %d MiB", n>>20)
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the flood never stalled (%d bytes): no back-pressure reached the target", n)
		}
		last = n
	}
	client := &http.Client{Timeout: 10 * time.Second}
	for i := range 5 {
		resp, err := client.Post(url+"/v1/chat/completions", "application/json",
			strings.NewReader(`{"model":"short","stream":true,"messages":[{"role":"user","content":"a"}]}`))
		if err != nil {
			t.Fatalf("request %d while three users are stuck: %v", i, err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("request %d while three users are stuck: %d", i, resp.StatusCode)
		}
	}
}
