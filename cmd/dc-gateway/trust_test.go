package main

import (
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/sucursal/sucursal/internal/pki"
	"github.com/sucursal/sucursal/internal/trust"
)

func TestTrustOptionsValidate(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    trustOptions
		want string
	}{
		{"off", trustOptions{}, ""},
		{"file only", trustOptions{file: "/var/lib/sucursal/gateway/trust.json"}, ""},
		{"nats and file", trustOptions{file: "/f", natsURL: "tls://fleet:4222", nkey: "/n"}, ""},
		{"nats without file", trustOptions{natsURL: "tls://fleet:4222"}, "needs --trust-file"},
		{"credentials without nats", trustOptions{file: "/f", nkey: "/n"}, "need --trust-nats"},
		{"creds and nkey", trustOptions{file: "/f", natsURL: "nats://x:4222", nkey: "/n", creds: "/c"}, "give one"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			errs := tc.o.validate()
			got := ""
			for _, e := range errs {
				got += e.Error() + "\n"
			}
			if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
				t.Fatalf("validate() = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestTrustSetupEnforcesTheFile: with --trust-file the gateway's admission refuses an edge the
// file does not enrol and admits one it does; without it, any fleet certificate is admitted.
func TestTrustSetupEnforcesTheFile(t *testing.T) {
	dir := t.TempDir()
	if _, err := pki.Init(pki.Options{Dir: dir, Edges: []string{"nuc-in", "nuc-out"}}); err != nil {
		t.Fatal(err)
	}
	ca, err := pki.LoadCA(dir)
	if err != nil {
		t.Fatal(err)
	}
	in, _ := pki.ReadEdgeCert(dir, "nuc-in")
	out, _ := pki.ReadEdgeCert(dir, "nuc-out")
	var l trust.List
	if err := l.Enrol(in, nil, time.Now()); err != nil {
		t.Fatal(err)
	}
	data, err := l.Seal(ca, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "trust.json")
	if err := trust.WriteFile(file, data); err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewJSONHandler(io.Discard, nil))
	_, gate, _, err := trustOptions{file: file}.setup(dir, prometheus.NewRegistry(), log)
	if err != nil {
		t.Fatal(err)
	}
	if err := gate.Admit("nuc-in", in); err != nil {
		t.Fatalf("enrolled edge refused: %v", err)
	}
	if err := gate.Admit("nuc-out", out); pki.ReasonOf(err) != pki.ReasonUnenrolled {
		t.Fatalf("unenrolled edge: %v", err)
	}
	_, open, _, err := trustOptions{}.setup(dir, prometheus.NewRegistry(), log)
	if err != nil {
		t.Fatal(err)
	}
	if err := open.Admit("nuc-out", out); err != nil {
		t.Fatalf("without a trust file any fleet certificate is admitted: %v", err)
	}
}
