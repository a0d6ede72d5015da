package pki

import (
	"crypto/x509"
	"encoding/pem"
	"os"
	"path/filepath"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// mustInit runs Init and fails the test on error.
func mustInit(t testing.TB, opts Options) Result {
	t.Helper()
	res, err := Init(opts)
	if err != nil {
		t.Fatalf("Init(%+v): %v", opts, err)
	}
	return res
}

// parseCertFile reads a PEM certificate without going through the code under test.
func parseCertFile(t testing.TB, path string) *x509.Certificate {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	block, _ := pem.Decode(data)
	if block == nil {
		t.Fatalf("%s: no PEM block", path)
	}
	c, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return c
}

func readFile(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// verifyLeaf checks path chains to the CA in dir for the given usage, as a peer would.
func verifyLeaf(t testing.TB, dir, path string, usage x509.ExtKeyUsage) error {
	t.Helper()
	pool := x509.NewCertPool()
	pool.AddCert(parseCertFile(t, filepath.Join(dir, "ca.crt")))
	_, err := parseCertFile(t, path).Verify(x509.VerifyOptions{Roots: pool, KeyUsages: []x509.ExtKeyUsage{usage}})
	return err
}
