package e2e

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/quic-go/quic-go"

	"github.com/sucursal/sucursal/internal/pki"
	"github.com/sucursal/sucursal/internal/wire"
)

// The control stream is negotiated, so either end may be of an older build (issue #15: the
// GOAWAY and ping frames must be version-compatible).

// TestEdgeWorksWithAGatewayWithoutControl: a gateway of an older build acknowledges the hello
// without the control feature and closes the hello stream. The edge then sends no ping (it
// would be an unknown frame type there), keeps the link, and serves requests.
func TestEdgeWorksWithAGatewayWithoutControl(t *testing.T) {
	fleet := newPKI(t)
	ln, ctx := fakeGateway(t, fleet, 30*time.Second)
	unexpected := make(chan string, 16)
	go func() {
		for {
			conn, err := ln.Accept(ctx)
			if err != nil {
				return
			}
			go oldGateway(ctx, conn, unexpected)
		}
	}()
	url, a := startAgent(t, fleet, ln.Addr().String())
	waitLink(t, a)
	if ack := a.Link().Ack(); wire.HasFeature(ack.Features, wire.FeatureControl) {
		t.Fatalf("the old gateway's ack has features %v", ack.Features)
	}
	time.Sleep(1200 * time.Millisecond) // more than two ping intervals: no ping may arrive
	resp, err := httpClient().Post(url+"/v1/chat/completions", "application/json",
		strings.NewReader(`{"model":"m","messages":[{"role":"user","content":"a"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("through an old gateway: %d %s", resp.StatusCode, body)
	}
	if ok, why := a.Link().Ready(); !ok {
		t.Fatalf("the link to an old gateway went down: %v", why)
	}
	select {
	case what := <-unexpected:
		t.Fatalf("the old gateway received %s", what)
	default:
	}
}

// oldGateway speaks the wire protocol as builds before the control stream did: hello-ack without
// features, the hello stream closed, every other stream a request answered with a completion.
func oldGateway(ctx context.Context, conn *quic.Conn, unexpected chan<- string) {
	hello, err := conn.AcceptStream(ctx)
	if err != nil {
		return
	}
	fr := wire.NewReader(hello)
	f, err := fr.Read()
	if err != nil || f.Type != wire.TypeHello {
		unexpected <- "no hello"
		return
	}
	var h wire.Hello
	_ = f.Decode(&h)
	_ = wire.WriteJSON(hello, wire.TypeHelloAck, wire.HelloAck{Version: wire.Version, Gateway: "old", EdgeID: h.EdgeID})
	_ = hello.Close()
	go func() {
		// Anything more on the hello stream is a frame an old gateway does not know.
		if f, err := fr.Read(); err == nil {
			unexpected <- "a " + f.Type.String() + " frame on the hello stream"
		}
	}()
	for {
		str, err := conn.AcceptStream(ctx)
		if err != nil {
			return
		}
		go func() {
			r := wire.NewReader(str)
			f, err := r.Read()
			if err != nil || f.Type != wire.TypeRequest {
				unexpected <- "a stream without a request"
				return
			}
			_ = wire.Write(str, wire.TypeAccepted, nil)
			comp := json.RawMessage(`{"id":"c1","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}]}`)
			_ = wire.WriteJSON(str, wire.TypeResponse, wire.Response{Status: http.StatusOK, Body: comp})
			_ = str.Close()
		}()
	}
}

// TestGatewayServesAnEdgeWithoutControl: an edge of an older build offers no features. The
// gateway answers its hello without the control feature, closes the hello stream as before, and
// serves its requests; it never writes a ping-era frame to it.
func TestGatewayServesAnEdgeWithoutControl(t *testing.T) {
	fleet := newPKI(t)
	addr := startGateway(t, fleet, pacedTarget(t, 3, time.Millisecond))
	tlsConf, err := pki.ClientTLS(fleet, edgeID)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	conn, err := quic.DialAddr(ctx, addr, tlsConf, &quic.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseWithError(0, "")
	hello, err := conn.OpenStreamSync(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := wire.WriteJSON(hello, wire.TypeHello, wire.Hello{Version: wire.Version, EdgeID: edgeID}); err != nil {
		t.Fatal(err)
	}
	fr := wire.NewReader(hello)
	f, err := fr.Read()
	if err != nil || f.Type != wire.TypeHelloAck {
		t.Fatalf("hello: %v %v", f.Type, err)
	}
	var ack wire.HelloAck
	if err := f.Decode(&ack); err != nil || len(ack.Features) != 0 {
		t.Fatalf("ack %+v (%v): an edge that offered nothing must get no features", ack, err)
	}
	if _, err := fr.Read(); err != io.EOF {
		t.Fatalf("after the ack the gateway must close the hello stream, got %v", err)
	}
	str, err := conn.OpenStreamSync(ctx)
	if err != nil {
		t.Fatal(err)
	}
	body := json.RawMessage(`{"model":"paced","messages":[{"role":"user","content":"a"}]}`)
	if err := wire.WriteJSON(str, wire.TypeRequest, wire.Request{Op: wire.OpChatCompletions, Body: body}); err != nil {
		t.Fatal(err)
	}
	r := wire.NewReader(str)
	var got []wire.Type
	for {
		f, err := r.Read()
		if err != nil {
			break
		}
		got = append(got, f.Type)
	}
	if len(got) != 2 || got[0] != wire.TypeAccepted || got[1] != wire.TypeResponse {
		t.Fatalf("frames %v, want accepted then response", got)
	}
}

// TestUnacknowledgedRequestsDeclareTheLinkDead: with a gateway that has no control stream (no
// pings) and stops acknowledging requests while its connection looks alive, three requests in a
// row that time out (504 dc_unresponsive) declare the link dead, and the edge re-dials instead of
// waiting for the QUIC idle timeout.
func TestUnacknowledgedRequestsDeclareTheLinkDead(t *testing.T) {
	fleet := newPKI(t)
	ln, ctx := fakeGateway(t, fleet, 60*time.Second)
	conns := make(chan struct{}, 16)
	go func() {
		for {
			conn, err := ln.Accept(ctx)
			if err != nil {
				return
			}
			conns <- struct{}{}
			go func() {
				hello, err := conn.AcceptStream(ctx)
				if err != nil {
					return
				}
				f, err := wire.NewReader(hello).Read()
				if err != nil {
					return
				}
				var h wire.Hello
				_ = f.Decode(&h)
				_ = wire.WriteJSON(hello, wire.TypeHelloAck, wire.HelloAck{Version: wire.Version, EdgeID: h.EdgeID})
				_ = hello.Close()
				for { // streams are read and never acknowledged: a wedged gateway
					str, err := conn.AcceptStream(ctx)
					if err != nil {
						return
					}
					go func() { _, _ = io.Copy(io.Discard, str) }()
				}
			}()
		}
	}()
	url, a := startAgent(t, fleet, ln.Addr().String())
	waitLink(t, a)
	<-conns
	for i := range 3 {
		resp, e := post(t, url, []byte(`{"model":"m","stream":true,"messages":[{"role":"user","content":"a"}]}`))
		if resp.StatusCode != http.StatusGatewayTimeout || deref(e.Error.Code) != "dc_unresponsive" {
			t.Fatalf("request %d: %d %s, want 504 dc_unresponsive", i, resp.StatusCode, deref(e.Error.Code))
		}
	}
	select {
	case <-conns:
	case <-time.After(10 * time.Second):
		t.Fatal("the edge kept the connection after three unacknowledged requests")
	}
}

// controlEdge dials addr as edgeID, says hello offering the control stream and returns the
// connection, the control stream, its reader and the gateway's ack.
func controlEdge(t *testing.T, fleet, addr string) (*quic.Conn, *quic.Stream, *wire.Reader, wire.HelloAck) {
	t.Helper()
	tlsConf, err := pki.ClientTLS(fleet, edgeID)
	if err != nil {
		t.Fatal(err)
	}
	tlsConf.ServerName = "localhost"
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	conn, err := quic.DialAddr(ctx, addr, tlsConf, &quic.Config{MaxIdleTimeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.CloseWithError(0, "") })
	str, err := conn.OpenStreamSync(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := wire.WriteJSON(str, wire.TypeHello, wire.Hello{Version: wire.Version, EdgeID: edgeID, Features: []string{wire.FeatureControl}}); err != nil {
		t.Fatal(err)
	}
	fr := wire.NewReader(str)
	f, err := fr.Read()
	if err != nil || f.Type != wire.TypeHelloAck {
		t.Fatalf("hello: %v %v", f.Type, err)
	}
	var ack wire.HelloAck
	if err := f.Decode(&ack); err != nil {
		t.Fatal(err)
	}
	return conn, str, fr, ack
}

// readPong reads the next frame of the control stream, which must be a pong.
func readPong(t *testing.T, str *quic.Stream, fr *wire.Reader) wire.Pong {
	t.Helper()
	_ = str.SetReadDeadline(time.Now().Add(10 * time.Second))
	f, err := fr.Read()
	if err != nil || f.Type != wire.TypePong {
		t.Fatalf("control stream: %v %v, want a pong", f.Type, err)
	}
	var p wire.Pong
	if err := f.Decode(&p); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestGatewayHeartbeatsAnEdgeThatAsks: the gateway offers heartbeats; an edge that asks for them
// in a ping gets that ping answered, then a heartbeat (a pong with seq 0) every interval it
// asked for, and the gateway reads nothing more on the control stream (a later ping is never
// answered: no goroutine of the gateway is reading it).
func TestGatewayHeartbeatsAnEdgeThatAsks(t *testing.T) {
	fleet := newPKI(t)
	addr := startGateway(t, fleet, pacedTarget(t, 3, time.Millisecond))
	_, str, fr, ack := controlEdge(t, fleet, addr)
	if !wire.HasFeature(ack.Features, wire.FeatureControl) || !wire.HasFeature(ack.Features, wire.FeatureHeartbeat) {
		t.Fatalf("ack features %v, want control and heartbeat", ack.Features)
	}
	if err := wire.WriteJSON(str, wire.TypePing, wire.Ping{Seq: 1, HeartbeatMillis: 100}); err != nil {
		t.Fatal(err)
	}
	if p := readPong(t, str, fr); p.Seq != 1 {
		t.Fatalf("the ping that asked for heartbeats was answered with seq %d", p.Seq)
	}
	for i := range 3 {
		if p := readPong(t, str, fr); p.Seq != 0 {
			t.Fatalf("heartbeat %d has seq %d, want 0", i, p.Seq)
		}
	}
	if err := wire.WriteJSON(str, wire.TypePing, wire.Ping{Seq: 2}); err != nil {
		t.Fatal(err)
	}
	for i := range 10 {
		if p := readPong(t, str, fr); p.Seq != 0 {
			t.Fatalf("frame %d after the switch: a pong for seq %d (the gateway still reads pings)", i, p.Seq)
		}
	}
}

// TestGatewayAnswersPingsOfAnEdgeWithoutHeartbeats: an edge of the build before heartbeats
// (issue 15) ignores the feature and keeps pinging; every ping is answered with its seq, and the
// gateway sends it no heartbeat.
func TestGatewayAnswersPingsOfAnEdgeWithoutHeartbeats(t *testing.T) {
	fleet := newPKI(t)
	addr := startGateway(t, fleet, pacedTarget(t, 3, time.Millisecond))
	_, str, fr, _ := controlEdge(t, fleet, addr)
	for seq := uint64(1); seq <= 5; seq++ {
		if err := wire.WriteJSON(str, wire.TypePing, wire.Ping{Seq: seq}); err != nil {
			t.Fatal(err)
		}
		if p := readPong(t, str, fr); p.Seq != seq {
			t.Fatalf("ping %d answered with seq %d (a heartbeat to an edge that did not ask?)", seq, p.Seq)
		}
	}
}

// TestEdgePingsAGatewayWithoutHeartbeats: a gateway of the build before heartbeats (control
// stream, pongs, no heartbeat feature) gets the edge's pings every interval, none asking for
// heartbeats, and the link stays up on its pongs.
func TestEdgePingsAGatewayWithoutHeartbeats(t *testing.T) {
	fleet := newPKI(t)
	ln, ctx := fakeGateway(t, fleet, 30*time.Second)
	pings := make(chan wire.Ping, 64)
	go func() {
		conn, err := ln.Accept(ctx)
		if err != nil {
			return
		}
		str, err := conn.AcceptStream(ctx)
		if err != nil {
			return
		}
		fr := wire.NewReader(str)
		f, err := fr.Read()
		if err != nil || f.Type != wire.TypeHello {
			return
		}
		var h wire.Hello
		_ = f.Decode(&h)
		_ = wire.WriteJSON(str, wire.TypeHelloAck, wire.HelloAck{Version: wire.Version, Gateway: "issue-15", EdgeID: h.EdgeID, Features: []string{wire.FeatureControl}})
		for {
			f, err := fr.Read()
			if err != nil {
				return
			}
			var p wire.Ping
			if f.Type != wire.TypePing || f.Decode(&p) != nil {
				return
			}
			pings <- p
			_ = wire.WriteJSON(str, wire.TypePong, wire.Pong{Seq: p.Seq})
		}
	}()
	_, a := startAgent(t, fleet, ln.Addr().String())
	waitLink(t, a)
	for i := range 5 { // 2.5 s of pings: longer than the ping timeout, so the pongs keep it up
		select {
		case p := <-pings:
			if p.HeartbeatMillis != 0 || p.Seq != uint64(i+1) {
				t.Fatalf("ping %d: %+v, want seq %d without a heartbeat request", i, p, i+1)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("only %d pings reached the gateway", i)
		}
	}
	if ok, why := a.Link().Ready(); !ok || a.Link().Connections() != 1 {
		t.Fatalf("the link to a gateway without heartbeats: ready %v (%v), %d connections", ok, why, a.Link().Connections())
	}
}

// TestEdgeLinkLivesOnHeartbeats: a real edge and a real gateway agree on heartbeats. The gateway
// answers one ping per connection and no more, yet the link stays up for several ping timeouts
// on the heartbeats alone, on its first connection.
func TestEdgeLinkLivesOnHeartbeats(t *testing.T) {
	fleet := newPKI(t)
	reg := prometheus.NewRegistry()
	_, addr := startGatewayServer(t, fleet, pacedTarget(t, 3, time.Millisecond), reg)
	_, a := startAgent(t, fleet, addr)
	waitLink(t, a)
	if ack := a.Link().Ack(); !wire.HasFeature(ack.Features, wire.FeatureHeartbeat) {
		t.Fatalf("ack features %v, want heartbeat", ack.Features)
	}
	time.Sleep(4 * time.Second) // ping timeout 1.5 s: a link without heartbeats would have been declared dead
	if ok, why := a.Link().Ready(); !ok || a.Link().Connections() != 1 {
		t.Fatalf("on heartbeats: ready %v (%v), %d connections", ok, why, a.Link().Connections())
	}
	if n := gatewayPings(t, reg); n != 1 {
		t.Fatalf("the gateway answered %v pings, want 1 (the one that asked for heartbeats)", n)
	}
}

func gatewayPings(t *testing.T, reg *prometheus.Registry) float64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() == "sucursal_gateway_pings_total" {
			return mf.GetMetric()[0].GetCounter().GetValue()
		}
	}
	t.Fatal("no sucursal_gateway_pings_total")
	return 0
}

// fakeGateway listens on loopback with the fleet's gateway certificate, for tests that play a
// gateway of another build by hand; the listener and ctx end with the test.
func fakeGateway(t *testing.T, fleet string, idle time.Duration) (*quic.Listener, context.Context) {
	t.Helper()
	tlsConf, err := pki.ServerTLS(fleet)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := quic.ListenAddr("127.0.0.1:0", tlsConf, &quic.Config{MaxIdleTimeout: idle})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	return ln, ctx
}

// TestGatewaySkipsHeartbeatsWhileAStreamDelivers: an edge that asks for heartbeats only when
// idle (wire.Ping's HeartbeatIdle, issue 20) gets none, or nearly none, while a request stream
// of its connection delivers chunks (every 10 ms, heartbeats asked every 100 ms), and gets them
// again once the answer is over.
func TestGatewaySkipsHeartbeatsWhileAStreamDelivers(t *testing.T) {
	beats := heartbeatsWhileStreaming(t, true)
	// 15 intervals of 100 ms passed while it streamed: a few heartbeats can slip in where the
	// loaded test machine held a chunk back for a whole interval, not most of them.
	if n := beats.during; n > 5 {
		t.Fatalf("%d heartbeats while a chunk came every 10 ms for 1.5 s, want (nearly) none", n)
	}
	deadline := time.Now().Add(10 * time.Second)
	for after := beats.count.Load(); beats.count.Load() < after+3; {
		if time.Now().After(deadline) {
			t.Fatal("heartbeats did not resume once the answer was over")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestGatewayHeartbeatsWhileStreamingToAnEdgeThatDidNotAsk: an edge of the build before issue
// 20 never sets HeartbeatIdle and counts only pongs as signs of life: it gets every heartbeat,
// streaming or not.
func TestGatewayHeartbeatsWhileStreamingToAnEdgeThatDidNotAsk(t *testing.T) {
	if n := heartbeatsWhileStreaming(t, false).during; n < 5 {
		t.Fatalf("%d heartbeats during 1.5 s of streaming with heartbeats asked every 100 ms, want about 15", n)
	}
}

type streamingBeats struct {
	count  *atomic.Int32 // heartbeats read, counting on after the answer
	during int32         // heartbeats read between the answer's first chunk and its end
}

// heartbeatsWhileStreaming asks the gateway for heartbeats every 100 ms (only when idle, or
// not), streams a 1.5 s answer (a chunk every 10 ms) on the same connection and counts them.
func heartbeatsWhileStreaming(t *testing.T, idle bool) streamingBeats {
	t.Helper()
	fleet := newPKI(t)
	addr := startGateway(t, fleet, pacedTarget(t, 150, 10*time.Millisecond)) // a 1.5 s answer
	conn, str, fr, _ := controlEdge(t, fleet, addr)
	if err := wire.WriteJSON(str, wire.TypePing, wire.Ping{Seq: 1, HeartbeatMillis: 100, HeartbeatIdle: idle}); err != nil {
		t.Fatal(err)
	}
	if p := readPong(t, str, fr); p.Seq != 1 {
		t.Fatalf("the ping that asked for heartbeats was answered with seq %d", p.Seq)
	}
	readPong(t, str, fr) // idle: heartbeats come
	beats := new(atomic.Int32)
	go func() {
		for {
			f, err := fr.Read()
			if err != nil {
				return
			}
			if f.Type == wire.TypePong {
				beats.Add(1)
			}
		}
	}()
	req, err := conn.OpenStreamSync(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	body := []byte(`{"model":"paced","stream":true,"messages":[{"role":"user","content":"a"}]}`)
	if err := wire.WriteJSON(req, wire.TypeRequest, wire.Request{Op: wire.OpChatCompletions, Stream: true, Body: body}); err != nil {
		t.Fatal(err)
	}
	rr := wire.NewReader(req)
	var chunks int
	for f, err := rr.Read(); ; f, err = rr.Read() {
		if err != nil {
			t.Fatalf("the request stream ended after %d chunks: %v", chunks, err)
		}
		if f.Type == wire.TypeChunk {
			if chunks++; chunks == 1 {
				beats.Store(0) // from the first chunk on
			}
		}
		if f.Type == wire.TypeDone {
			return streamingBeats{count: beats, during: beats.Load()}
		}
	}
}
