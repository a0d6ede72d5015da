package pki

import (
	"context"
	"crypto/tls"
	"io"
	"net"
	"testing"
	"time"

	"github.com/quic-go/quic-go"
)

// quicExchange dials the listener with client, sends "hello" on one stream and reads back what the
// server answers: the edge id it read from the verified certificate. It owns its UDP socket and
// transport so every goroutine quic-go starts for it is gone when it returns.
func quicExchange(ctx context.Context, addr net.Addr, client *tls.Config) (string, string, error) {
	udp, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		return "", "", err
	}
	tr := &quic.Transport{Conn: udp}
	defer udp.Close()
	defer tr.Close()
	conn, err := tr.Dial(ctx, addr, client, nil)
	if err != nil {
		return "", "", err
	}
	defer conn.CloseWithError(0, "")
	alpn := conn.ConnectionState().TLS.NegotiatedProtocol
	s, err := conn.OpenStreamSync(ctx)
	if err != nil {
		return "", alpn, err
	}
	if _, err := s.Write([]byte("hello")); err != nil {
		return "", alpn, err
	}
	s.Close()
	got, err := io.ReadAll(s)
	return string(got), alpn, err
}

func TestQUICMutualTLS(t *testing.T) {
	fleet, other := t.TempDir(), t.TempDir()
	mustInit(t, Options{Dir: fleet, Edges: []string{"nuc-lisboa-01"}})
	mustInit(t, Options{Dir: other, Edges: []string{"nuc-lisboa-01"}})
	server, err := ServerTLS(fleet)
	if err != nil {
		t.Fatal(err)
	}
	// An explicit Transport rather than quic.ListenAddr: closing it stops every goroutine quic-go
	// started for the listener at once, where ListenAddr's single-use transport lingers after
	// Close until its closed connections time out. The gateway should own its transport the same way.
	udp, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	tr := &quic.Transport{Conn: udp}
	defer udp.Close()
	defer tr.Close()
	ln, err := tr.Listen(server, nil)
	if err != nil {
		t.Fatal(err)
	}
	// A hang guard, not a speed assertion.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	type accepted struct {
		id, alpn string
		err      error
	}
	got := make(chan accepted, 4)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			conn, err := ln.Accept(ctx)
			if err != nil {
				return // listener closed
			}
			a := accepted{alpn: conn.ConnectionState().TLS.NegotiatedProtocol}
			a.id, a.err = PeerEdgeID(conn.ConnectionState().TLS)
			if s, err := conn.AcceptStream(ctx); err == nil {
				io.ReadAll(s)
				s.Write([]byte(a.id))
				s.Close()
			}
			got <- a
			<-conn.Context().Done() // the client closes when it has read the answer
		}
	}()
	defer func() { tr.Close(); <-done }()

	client, err := ClientTLS(fleet, "nuc-lisboa-01")
	if err != nil {
		t.Fatal(err)
	}
	answer, alpn, err := quicExchange(ctx, ln.Addr(), client)
	if err != nil || answer != "nuc-lisboa-01" || alpn != ALPN {
		t.Fatalf("fleet edge over QUIC: answer %q ALPN %q err %v", answer, alpn, err)
	}
	if a := <-got; a.err != nil || a.id != "nuc-lisboa-01" || a.alpn != ALPN {
		t.Fatalf("server side: %+v", a)
	}

	foreign, err := ClientTLS(other, "nuc-lisboa-01")
	if err != nil {
		t.Fatal(err)
	}
	if answer, _, err := quicExchange(ctx, ln.Addr(), foreign); err == nil {
		t.Fatalf("edge from another CA got answer %q over QUIC", answer)
	}
	select {
	case a := <-got:
		t.Fatalf("server accepted a connection from another CA: %+v", a)
	default:
	}
}
