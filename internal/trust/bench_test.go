package trust

import (
	"crypto/tls"
	"fmt"
	"io"
	"log/slog"
	"net"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/sucursal/sucursal/internal/pki"
)

// BenchmarkAdmittedHandshake is the cost of fleet trust per edge handshake: one full mutual TLS
// 1.3 handshake over net.Pipe, the edge id read as the gateway reads it, with
//   - baseline: pki.ServerTLS (crypto/tls verifies the chain; any fleet certificate admitted);
//   - gate: trust.Gate's config (the chain verified in VerifyConnection, the list checked, the
//     chain verified again by PeerEdgeID) with a list of 3,000 enrolled edges and 500 revocations.
//
// It reports cpu-ns/op (process CPU per handshake, both ends) beside the noisy wall time.
func BenchmarkAdmittedHandshake(b *testing.B) {
	f := newFixture(b, "branch-1")
	var l List
	if err := l.Enrol(f.certs["branch-1"], nil, time.Now()); err != nil {
		b.Fatal(err)
	}
	// Synthetic entries: only their count matters to the lookup.
	for i := range 3000 {
		l.Enrolled = append(l.Enrolled, Enrolment{EdgeID: fmt.Sprintf("branch-x%04d", i), Fingerprint: fmt.Sprintf("%064x", i)})
	}
	for i := range 500 {
		l.Revoked = append(l.Revoked, Revocation{EdgeID: fmt.Sprintf("gone-%03d", i), Fingerprint: fmt.Sprintf("%064x", 1e6+i)})
	}
	data, err := l.Seal(f.ca, time.Now())
	if err != nil {
		b.Fatal(err)
	}
	store := NewStore(f.ca.Cert, "")
	if _, err := store.Apply(data); err != nil {
		b.Fatal(err)
	}
	gate := NewGate(store, nil, slog.New(slog.NewTextHandler(io.Discard, nil)))
	gated, err := gate.TLS(f.dir)
	if err != nil {
		b.Fatal(err)
	}
	plain, err := pki.ServerTLS(f.dir)
	if err != nil {
		b.Fatal(err)
	}
	client, err := pki.ClientTLS(f.dir, "branch-1")
	if err != nil {
		b.Fatal(err)
	}
	plain.SessionTicketsDisabled, gated.SessionTicketsDisabled = true, true
	b.Run("baseline-servertls", func(b *testing.B) {
		loop(b, func() { handshake(b, plain, client, pki.PeerEdgeID) })
	})
	b.Run("gate-3000-enrolled", func(b *testing.B) {
		loop(b, func() { handshake(b, gated, client, gate.PeerEdgeID) })
	})
}

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

func handshake(b *testing.B, server, client *tls.Config, peer func(tls.ConnectionState) (string, error)) {
	sc, cc := net.Pipe()
	defer sc.Close()
	defer cc.Close()
	var wg sync.WaitGroup
	var serverErr error
	var id string
	wg.Go(func() {
		s := tls.Server(sc, server)
		if serverErr = s.Handshake(); serverErr == nil {
			id, serverErr = peer(s.ConnectionState())
		}
	})
	clientErr := tls.Client(cc, client).Handshake()
	wg.Wait()
	if serverErr != nil || clientErr != nil || id != "branch-1" {
		b.Fatalf("handshake: server %v, client %v, id %q", serverErr, clientErr, id)
	}
}
