//go:build unix

package pki

import (
	"crypto"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"net"
	"net/url"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The benchmarks measure the choice of ECDSA P-256 against ed25519 as the baseline, in the same
// run: issuing an edge certificate, and one full mutual TLS 1.3 handshake with ServerTLS/ClientTLS.
// Besides ns/op they report cpu-ns/op (process user+system CPU time per operation): on a shared
// 2-core CI machine wall time mostly measures the neighbours, CPU time much less so.

// loop runs op b.N times via b.Loop and reports the CPU time it used per iteration.
func loop(b *testing.B, op func()) {
	start := cpuTime(b)
	n := 0
	for b.Loop() {
		op()
		n++
	}
	b.ReportMetric(float64(cpuTime(b)-start)/float64(n), "cpu-ns/op")
}

func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func BenchmarkIssueEdge(b *testing.B) {
	dir := b.TempDir()
	mustInit(b, Options{Dir: dir})
	ca, err := loadSigner(dir, time.Now())
	if err != nil {
		b.Fatal(err)
	}
	b.Run("ecdsa-p256", func(b *testing.B) {
		loop(b, func() {
			if _, err := issueEdge(ca, "branch-1", time.Now(), DefaultValidity); err != nil {
				b.Fatal(err)
			}
		})
	})
	edCA, edCAKey := ed25519CA(b)
	b.Run("ed25519", func(b *testing.B) {
		loop(b, func() { ed25519Edge(b, edCA, edCAKey, "branch-1") })
	})
}

func BenchmarkMutualHandshake(b *testing.B) {
	dir := b.TempDir()
	mustInit(b, Options{Dir: dir, Edges: []string{"branch-1"}})
	server, err := ServerTLS(dir)
	if err != nil {
		b.Fatal(err)
	}
	client, err := ClientTLS(dir, "branch-1")
	if err != nil {
		b.Fatal(err)
	}
	// Tickets off: each iteration is a full handshake, and net.Pipe has no buffer for an unread ticket.
	server.SessionTicketsDisabled = true
	b.Run("ecdsa-p256", func(b *testing.B) {
		loop(b, func() { pipeHandshake(b, server, client) })
	})

	// Same configs, same verification hooks, only the keys and certificates swapped for ed25519.
	edCA, edCAKey := ed25519CA(b)
	pool := x509.NewCertPool()
	pool.AddCert(edCA)
	edServer, edClient := server.Clone(), client.Clone()
	edServer.ClientCAs, edClient.RootCAs = pool, pool
	edServer.Certificates = []tls.Certificate{ed25519Leaf(b, edCA, edCAKey, &x509.Certificate{
		Subject: pkix.Name{CommonName: "dc-gateway"}, DNSNames: []string{"localhost"},
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}})}
	edClient.Certificates = []tls.Certificate{ed25519Edge(b, edCA, edCAKey, "branch-1")}
	b.Run("ed25519", func(b *testing.B) {
		loop(b, func() { pipeHandshake(b, edServer, edClient) })
	})
}

// pipeHandshake runs one handshake over an in-memory pipe, so the figure is crypto and protocol
// work, not the kernel's loopback.
func pipeHandshake(b *testing.B, server, client *tls.Config) {
	sc, cc := net.Pipe()
	defer sc.Close()
	defer cc.Close()
	var wg sync.WaitGroup
	var serverErr error
	var id string
	wg.Go(func() {
		s := tls.Server(sc, server)
		if serverErr = s.Handshake(); serverErr == nil {
			id, serverErr = PeerEdgeID(s.ConnectionState())
		}
	})
	clientErr := tls.Client(cc, client).Handshake()
	wg.Wait()
	if serverErr != nil || clientErr != nil || id != "branch-1" {
		b.Fatalf("handshake: server %v, client %v, id %q", serverErr, clientErr, id)
	}
}

func ed25519CA(b *testing.B) (*x509.Certificate, ed25519.PrivateKey) {
	pub, key, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		b.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "ed25519 CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, pub, key)
	if err != nil {
		b.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		b.Fatal(err)
	}
	return cert, key
}

func ed25519Edge(b *testing.B, ca *x509.Certificate, caKey crypto.Signer, id string) tls.Certificate {
	u, _ := url.Parse(edgeURI(id))
	return ed25519Leaf(b, ca, caKey, &x509.Certificate{Subject: pkix.Name{CommonName: id}, URIs: []*url.URL{u},
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}})
}

func ed25519Leaf(b *testing.B, ca *x509.Certificate, caKey crypto.Signer, tmpl *x509.Certificate) tls.Certificate {
	pub, key, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		b.Fatal(err)
	}
	tmpl.SerialNumber, _ = serial()
	tmpl.NotBefore, tmpl.NotAfter = time.Now().Add(-time.Hour), time.Now().Add(time.Hour)
	tmpl.KeyUsage = x509.KeyUsageDigitalSignature
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, pub, caKey)
	if err != nil {
		b.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}
