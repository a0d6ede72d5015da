package pki

import (
	"bufio"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"net/url"
	"path/filepath"
	"testing"
	"time"
)

// handshakeResult is what each side of one loopback TLS connection saw.
type handshakeResult struct {
	serverErr error  // from the server's Handshake: refusals must happen here, not later
	serverID  string // edge id the server read from the verified chain
	idErr     error
	clientErr error
	clientGot string // what the server sent after a successful handshake
	alpn      string
}

// handshake runs one TLS connection over loopback TCP. On success the server sends the edge id it
// read back to the client, so both sides prove the connection is usable.
func handshake(t *testing.T, server, client *tls.Config) handshakeResult {
	t.Helper()
	ln, err := tls.Listen("tcp", "127.0.0.1:0", server)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var res handshakeResult
	done := make(chan struct{})
	go func() {
		defer close(done)
		c, err := ln.Accept()
		if err != nil {
			res.serverErr = err
			return
		}
		defer c.Close()
		tc := c.(*tls.Conn)
		// A hang guard, not a speed assertion: a broken handshake must fail the test, not block it.
		tc.SetDeadline(time.Now().Add(time.Minute))
		if res.serverErr = tc.Handshake(); res.serverErr != nil {
			return
		}
		if res.serverID, res.idErr = PeerEdgeID(tc.ConnectionState()); res.idErr == nil {
			tc.Write([]byte(res.serverID + "\n"))
		}
	}()
	c, err := tls.Dial("tcp", ln.Addr().String(), client)
	if err == nil {
		c.SetDeadline(time.Now().Add(time.Minute))
		// In TLS 1.3 the client finishes before the server has checked its certificate; the
		// server's verdict arrives as an alert on the first read.
		res.clientGot, res.clientErr = bufio.NewReader(c).ReadString('\n')
		res.alpn = c.ConnectionState().NegotiatedProtocol
		c.Close()
	} else {
		res.clientErr = err
	}
	ln.Close()
	<-done
	return res
}

// withCert returns a copy of cfg presenting a different certificate.
func withCert(cfg *tls.Config, cert tls.Certificate) *tls.Config {
	c := cfg.Clone()
	c.Certificates = []tls.Certificate{cert}
	return c
}

// customLeaf signs tmpl with the CA in dir, for certificates Init would never make.
func customLeaf(t *testing.T, dir string, tmpl *x509.Certificate) tls.Certificate {
	t.Helper()
	ca, err := loadSigner(dir, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	tmpl.NotBefore, tmpl.NotAfter = time.Now().Add(-time.Hour), time.Now().Add(time.Hour)
	is, err := issue(tmpl, &ca)
	if err != nil {
		t.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{is.der}, PrivateKey: is.key, Leaf: is.cert}
}

func mustLoadPair(t *testing.T, certPath, keyPath string) tls.Certificate {
	t.Helper()
	p, err := tls.LoadX509KeyPair(certPath, keyPath)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestMutualTLSHandshake(t *testing.T) {
	fleet, other := t.TempDir(), t.TempDir()
	mustInit(t, Options{Dir: fleet, Edges: []string{"branch-7"}})
	mustInit(t, Options{Dir: other, Edges: []string{"branch-7", "intruder"}})

	server, err := ServerTLS(fleet)
	if err != nil {
		t.Fatal(err)
	}
	client, err := ClientTLS(fleet, "branch-7")
	if err != nil {
		t.Fatal(err)
	}
	foreign, err := ClientTLS(other, "branch-7")
	if err != nil {
		t.Fatal(err)
	}
	edgeURL, _ := url.Parse("urn:sucursal:edge:branch-7")
	noALPN := client.Clone()
	noALPN.NextProtos = nil
	noCert := client.Clone()
	noCert.Certificates = nil
	tls12 := client.Clone()
	tls12.MinVersion, tls12.MaxVersion = tls.VersionTLS12, tls.VersionTLS12
	foreignServer, err := ServerTLS(other)
	if err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name   string
		server *tls.Config
		client *tls.Config
		wantID string // "" means the connection must be refused
		// wantServerErr, if set, is the sentinel the server's refusal must carry.
		wantServerErr error
	}{
		{name: "fleet edge accepted", server: server, client: client, wantID: "branch-7"},
		{name: "edge from another CA with the same id", server: server, client: foreign},
		{name: "gateway cert used as a client cert", server: server,
			client: withCert(client, mustLoadPair(t, filepath.Join(fleet, DCCertFile), filepath.Join(fleet, DCKeyFile)))},
		{name: "fleet-signed client cert without edge id", server: server, wantServerErr: ErrNoEdgeID,
			client: withCert(client, customLeaf(t, fleet, &x509.Certificate{Subject: pkix.Name{CommonName: "branch-7"},
				ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}, KeyUsage: x509.KeyUsageDigitalSignature}))},
		{name: "fleet-signed edge id without client-auth usage", server: server,
			client: withCert(client, customLeaf(t, fleet, &x509.Certificate{Subject: pkix.Name{CommonName: "branch-7"}, URIs: []*url.URL{edgeURL},
				ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, KeyUsage: x509.KeyUsageDigitalSignature}))},
		{name: "CA cert presented as client cert", server: server,
			client: withCert(client, mustLoadPair(t, filepath.Join(fleet, CACertFile), filepath.Join(fleet, CAKeyFile)))},
		{name: "no certificate", server: server, client: noCert},
		{name: "client without ALPN", server: server, client: noALPN, wantServerErr: ErrPeerRejected},
		{name: "client limited to TLS 1.2", server: server, client: tls12},
		{name: "gateway from another CA refused by the edge", server: foreignServer, client: client},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := handshake(t, tt.server, tt.client)
			if tt.wantID != "" {
				if res.serverErr != nil || res.idErr != nil || res.clientErr != nil {
					t.Fatalf("server err %v, id err %v, client err %v; want success", res.serverErr, res.idErr, res.clientErr)
				}
				if res.serverID != tt.wantID || res.clientGot != tt.wantID+"\n" || res.alpn != ALPN {
					t.Fatalf("server read id %q, client got %q, ALPN %q", res.serverID, res.clientGot, res.alpn)
				}
				return
			}
			if res.serverErr == nil || res.clientErr == nil {
				t.Fatalf("server handshake err %v, client err %v; want both sides to fail the handshake", res.serverErr, res.clientErr)
			}
			if res.serverID != "" {
				t.Fatalf("server read edge id %q from a refused connection", res.serverID)
			}
			if tt.wantServerErr != nil && !errors.Is(res.serverErr, tt.wantServerErr) {
				t.Fatalf("server err %v, want %v", res.serverErr, tt.wantServerErr)
			}
		})
	}
}

func TestPeerEdgeIDNeedsVerifiedChain(t *testing.T) {
	c := &x509.Certificate{Subject: pkix.Name{CommonName: "a"}}
	u, _ := url.Parse("urn:sucursal:edge:a")
	c.URIs = []*url.URL{u}
	// Presented but unverified: must not yield an id.
	if id, err := PeerEdgeID(tls.ConnectionState{PeerCertificates: []*x509.Certificate{c}}); err == nil {
		t.Fatalf("PeerEdgeID of an unverified peer = %q", id)
	}
	if id, err := PeerEdgeID(tls.ConnectionState{VerifiedChains: [][]*x509.Certificate{{c}}}); err != nil || id != "a" {
		t.Fatalf("PeerEdgeID of a verified chain = %q, %v", id, err)
	}
}
