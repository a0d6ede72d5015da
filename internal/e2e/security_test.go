package e2e

import (
	"context"
	"crypto/x509"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quic-go/quic-go"

	"github.com/sucursal/sucursal/internal/pki"
	"github.com/sucursal/sucursal/internal/wire"
)

// TestForeignCAIsRefusedAtTheHandshake: an edge certificate from another CA (same edge id, same
// layout) never gets a connection, even when the client trusts the right gateway.
func TestForeignCAIsRefusedAtTheHandshake(t *testing.T) {
	fleet := newPKI(t)
	other := newPKI(t) // a different CA that also issued "branch-test-01"
	addr := startGateway(t, fleet, "http://127.0.0.1:1/v1")

	tlsConf, err := pki.ClientTLS(other, edgeID)
	if err != nil {
		t.Fatal(err)
	}
	caPEM, err := os.ReadFile(filepath.Join(fleet, pki.CACertFile))
	if err != nil {
		t.Fatal(err)
	}
	tlsConf.RootCAs = x509.NewCertPool()
	tlsConf.RootCAs.AppendCertsFromPEM(caPEM) // trust the real gateway: only our cert is foreign
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := quic.DialAddr(ctx, addr, tlsConf, &quic.Config{})
	if err == nil {
		// TLS 1.3: the client may finish before the server's verdict arrives; the connection must
		// then die before any stream works.
		str, serr := conn.OpenStreamSync(ctx)
		if serr == nil {
			_ = wire.WriteJSON(str, wire.TypeHello, wire.Hello{Version: wire.Version, EdgeID: edgeID})
			_, serr = wire.NewReader(str).Read()
		}
		if serr == nil {
			t.Fatal("a certificate from another CA got a working connection")
		}
		err = serr
	}
	var te *quic.TransportError
	if !errors.As(err, &te) || !strings.Contains(err.Error(), "certificate") {
		t.Fatalf("want a TLS certificate error from the handshake, got %v", err)
	}

	// The agent with the foreign certificate is never ready and says why.
	url, a := startAgent(t, other, addr)
	deadline := time.Now().Add(10 * time.Second)
	for {
		ok, why := a.Link().Ready()
		if ok {
			t.Fatal("the agent with a foreign certificate became ready")
		}
		if why != nil && strings.Contains(why.Error(), "certificate") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the agent's link error does not explain the refusal: %v", why)
		}
		time.Sleep(20 * time.Millisecond)
	}
	resp, e := post(t, url, []byte(`{"model":"tiny","messages":[{"role":"user","content":"a"}]}`))
	if resp.StatusCode != http.StatusServiceUnavailable || deref(e.Error.Code) != "dc_unavailable" {
		t.Fatalf("got %d %s", resp.StatusCode, deref(e.Error.Code))
	}
}

// TestWrongProtocolVersionIsRefusedOnBothSides: an edge speaking another protocol version is
// refused by the gateway with a reason naming both versions; an edge talking to a gateway of
// another version refuses it and reports why.
func TestWrongProtocolVersionIsRefusedOnBothSides(t *testing.T) {
	fleet := newPKI(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	t.Run("edge speaks a newer version", func(t *testing.T) {
		addr := startGateway(t, fleet, "http://127.0.0.1:1/v1")
		tlsConf, err := pki.ClientTLS(fleet, edgeID)
		if err != nil {
			t.Fatal(err)
		}
		conn, err := quic.DialAddr(ctx, addr, tlsConf, &quic.Config{})
		if err != nil {
			t.Fatal(err)
		}
		str, err := conn.OpenStreamSync(ctx)
		if err != nil {
			t.Fatal(err)
		}
		// A version-2 hello frame, written by hand: this build cannot speak version 2.
		if _, err := str.Write([]byte{2, byte(wire.TypeHello), 0, 0, 0, 2, '{', '}'}); err != nil {
			t.Fatal(err)
		}
		<-conn.Context().Done()
		var ae *quic.ApplicationError
		if err := context.Cause(conn.Context()); !errors.As(err, &ae) || ae.ErrorCode != wire.CodeVersionMismatch ||
			!strings.Contains(ae.ErrorMessage, "version 2") || !strings.Contains(ae.ErrorMessage, "version 1") {
			t.Fatalf("want a version refusal naming both versions, got %v", err)
		}
	})

	t.Run("gateway speaks a newer version", func(t *testing.T) {
		tlsConf, err := pki.ServerTLS(fleet)
		if err != nil {
			t.Fatal(err)
		}
		ln, err := quic.ListenAddr("127.0.0.1:0", tlsConf, &quic.Config{})
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		go func() {
			for {
				conn, err := ln.Accept(ctx)
				if err != nil {
					return
				}
				str, err := conn.AcceptStream(ctx)
				if err != nil {
					return
				}
				_, _ = wire.NewReader(str).Read()
				_, _ = str.Write([]byte{2, byte(wire.TypeHelloAck), 0, 0, 0, 2, '{', '}'})
			}
		}()
		_, a := startAgent(t, fleet, ln.Addr().String())
		deadline := time.Now().Add(10 * time.Second)
		for {
			ok, why := a.Link().Ready()
			if ok {
				t.Fatal("the agent accepted a gateway of another protocol version")
			}
			if why != nil && errors.Is(why, wire.ErrVersion) {
				if !strings.Contains(why.Error(), "version 2") {
					t.Fatalf("the error does not name the peer's version: %v", why)
				}
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("want a version error, last error: %v", why)
			}
			time.Sleep(20 * time.Millisecond)
		}
	})
}
