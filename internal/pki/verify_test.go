package pki

import (
	"crypto/tls"
	"crypto/x509"
	"net"
	"sync"
	"testing"
	"time"
)

// TestGatewayTLSRefusalReasons: every handshake the gateway refuses is reported with the reason
// an operator needs, and an admitted one yields the edge id through PeerEdgeID.
func TestGatewayTLSRefusalReasons(t *testing.T) {
	fleet, other := t.TempDir(), t.TempDir()
	// The fleet's CA was made three days ago, so that it can sign an edge certificate that
	// expired a day ago.
	past := func() time.Time { return time.Now().Add(-3 * 24 * time.Hour) }
	mustInit(t, Options{Dir: fleet, Edges: []string{"nuc-ok", "nuc-banned"}, Now: past})
	mustInit(t, Options{Dir: other, Edges: []string{"nuc-ok"}})
	if _, err := AddEdges(fleet, []string{"nuc-expired"}, 24*time.Hour, past); err != nil {
		t.Fatal(err)
	}
	client := func(dir, id string) *tls.Config {
		c, err := ClientTLS(dir, id)
		if err != nil && id != "nuc-expired" {
			t.Fatal(err)
		}
		if id == "nuc-expired" { // ClientTLS refuses to load an expired pair; build it by hand
			pair, err := tls.LoadX509KeyPair(EdgeCertPath(dir, id), EdgeKeyPath(dir, id))
			if err != nil {
				t.Fatal(err)
			}
			ok, err := ClientTLS(dir, "nuc-ok")
			if err != nil {
				t.Fatal(err)
			}
			ok.Certificates = []tls.Certificate{pair}
			return ok
		}
		// Trust the fleet's gateway even when the client certificate comes from another CA.
		fc, err := ClientTLS(fleet, "nuc-ok")
		if err != nil {
			t.Fatal(err)
		}
		c.RootCAs = fc.RootCAs
		return c
	}
	noCert := client(fleet, "nuc-ok").Clone()
	noCert.Certificates = nil

	tests := []struct {
		name   string
		client *tls.Config
		want   string // "" = admitted
		id     string
	}{
		{"enrolled edge", client(fleet, "nuc-ok"), "", "nuc-ok"},
		{"no client certificate", noCert, ReasonNoClientCert, ""},
		{"foreign CA", client(other, "nuc-ok"), ReasonForeignCA, ""},
		{"expired", client(fleet, "nuc-expired"), ReasonExpired, ""},
		{"admit refuses", client(fleet, "nuc-banned"), ReasonRevoked, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			var reasons []string
			server, v, err := GatewayTLS(fleet, Admission{
				Admit: func(id string, _ *x509.Certificate) error {
					if id == "nuc-banned" {
						return Refuse(ReasonRevoked, "banned")
					}
					return nil
				},
				Refused: func(reason string, _ error) { mu.Lock(); reasons = append(reasons, reason); mu.Unlock() },
			})
			if err != nil {
				t.Fatal(err)
			}
			cs, serr := serverHandshake(t, server, tc.client)
			mu.Lock()
			defer mu.Unlock()
			if tc.want == "" {
				if serr != nil || len(reasons) != 0 {
					t.Fatalf("refused: %v %v", serr, reasons)
				}
				id, err := v.PeerEdgeID(cs)
				if err != nil || id != tc.id {
					t.Fatalf("PeerEdgeID = %q, %v; want %q", id, err, tc.id)
				}
				return
			}
			if serr == nil {
				t.Fatal("handshake admitted")
			}
			if got := ReasonOf(serr); got != tc.want || len(reasons) != 1 || reasons[0] != tc.want {
				t.Fatalf("reason %q, reported %v; want %q", got, reasons, tc.want)
			}
		})
	}
}

// serverHandshake runs a TLS handshake over an in-memory pipe and returns the server's state and error.
func serverHandshake(t *testing.T, server, client *tls.Config) (tls.ConnectionState, error) {
	t.Helper()
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	_ = a.SetDeadline(time.Now().Add(5 * time.Second))
	_ = b.SetDeadline(time.Now().Add(5 * time.Second))
	done := make(chan struct{})
	go func() {
		defer close(done)
		c := tls.Client(b, client)
		_ = c.Handshake()
		// TLS 1.3: read once so the client sees the server's verdict, then give up.
		_, _ = c.Read(make([]byte, 1))
		c.Close()
	}()
	s := tls.Server(a, server)
	err := s.Handshake()
	cs := s.ConnectionState()
	s.Close()
	<-done
	return cs, err
}
