package pki

import (
	"crypto"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"time"
)

// The layout of a PKI directory. An edge (NUC) holds only ca.crt and its own edges/<id>.{crt,key},
// in the same places, so one loader serves both sides.
const (
	CACertFile = "ca.crt"
	CAKeyFile  = "ca.key"
	DCCertFile = "dc-gateway.crt"
	DCKeyFile  = "dc-gateway.key"
	EdgesDir   = "edges"

	dirMode  fs.FileMode = 0o700
	keyMode  fs.FileMode = 0o600
	certMode fs.FileMode = 0o644
)

var (
	// ErrMissing means a file the PKI needs does not exist; the error names it and the command that creates it.
	ErrMissing = errors.New("missing PKI file")
	// ErrKeyPermissions means a private key file can be read or written by someone other than its
	// owner. Such a key is refused, not just warned about: a key others could read must be assumed
	// copied, and a loud refusal at start-up is cheaper than an impersonated branch.
	ErrKeyPermissions = errors.New("private key file permissions too open")
	// ErrExpired means a certificate is past its NotAfter (or, with a wrong clock, before its NotBefore).
	ErrExpired = errors.New("certificate not valid at this time")
	// ErrMismatch means files exist but do not belong together (key does not match cert, cert not
	// signed by this CA, a cert without its key).
	ErrMismatch = errors.New("PKI files do not match")
)

// EdgeCertPath and EdgeKeyPath are where an edge's certificate and key live under dir.
func EdgeCertPath(dir, id string) string { return filepath.Join(dir, EdgesDir, id+".crt") }
func EdgeKeyPath(dir, id string) string  { return filepath.Join(dir, EdgesDir, id+".key") }

func initHint(dir string) string {
	return fmt.Sprintf("create it with: fleetctl pki init --dir %s", dir)
}
func edgeHint(dir, id string) string {
	return fmt.Sprintf("create it on the operator machine with: fleetctl pki add-edge --dir %s %s", dir, id)
}

// exists reports whether path exists; errors other than not-exist (permissions, I/O) are returned.
func exists(path string) (bool, error) {
	_, err := os.Stat(path)
	if err == nil {
		return true, nil
	}
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return false, fmt.Errorf("stat %s: %w", path, err)
}

// ensureDir creates dir with owner-only access. An existing directory is left as it is: it may be
// the operator's own, and the keys inside are 0600 regardless.
func ensureDir(dir string) error {
	ok, err := exists(dir)
	if err != nil || ok {
		return err
	}
	if err := os.MkdirAll(dir, dirMode); err != nil {
		return fmt.Errorf("create directory: %w", err)
	}
	// MkdirAll is subject to the umask; make the mode exact.
	if err := os.Chmod(dir, dirMode); err != nil {
		return fmt.Errorf("chmod directory: %w", err)
	}
	return nil
}

// writeAtomic replaces path with data via a temp file and rename, so a crash never leaves a
// half-written key or certificate behind under the real name.
func writeAtomic(path string, data []byte, mode fs.FileMode) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp := f.Name()
	defer os.Remove(tmp) // no-op after a successful rename
	// Chmod before writing: the temp file must never hold key bytes with a wider mode.
	if err := f.Chmod(mode); err != nil {
		f.Close()
		return fmt.Errorf("chmod %s: %w", path, err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("sync %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("close %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("rename into %s: %w", path, err)
	}
	return nil
}

// writePair writes the key first and the certificate last: a certificate on disk means its key is
// there too, which is what Init uses to decide whether an entry exists.
func writePair(certPath, keyPath string, is issued) error {
	keyDER, err := x509.MarshalPKCS8PrivateKey(is.key)
	if err != nil {
		return fmt.Errorf("encode key for %s: %w", keyPath, err)
	}
	if err := writeAtomic(keyPath, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}), keyMode); err != nil {
		return err
	}
	return writeAtomic(certPath, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: is.der}), certMode)
}

func readCert(path, hint string) (*x509.Certificate, []byte, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, fmt.Errorf("%w: %s does not exist; %s", ErrMissing, path, hint)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("read certificate: %w", err)
	}
	block, _ := pem.Decode(data)
	if block == nil || block.Type != "CERTIFICATE" {
		return nil, nil, fmt.Errorf("%s: no PEM CERTIFICATE block", path)
	}
	cert, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return cert, data, nil
}

// readKey reads a private key file, refusing it if group or others have any access to it. The
// mode is checked on the opened file so it cannot be swapped between the check and the read.
func readKey(path, hint string) ([]byte, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: %s does not exist; %s", ErrMissing, path, hint)
	}
	if err != nil {
		return nil, fmt.Errorf("open key: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("stat key: %w", err)
	}
	// Windows has no Unix permission bits to check; its ACLs are out of scope here.
	if perm := st.Mode().Perm(); runtime.GOOS != "windows" && perm&0o077 != 0 {
		return nil, fmt.Errorf("%w: %s has mode %04o, want 0600 (run: chmod 600 %s)", ErrKeyPermissions, path, perm, path)
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("read key %s: %w", path, err)
	}
	return data, nil
}

// loadPair loads a certificate and its key and checks that they match and are valid at now.
func loadPair(certPath, keyPath, hint string, now time.Time) (tls.Certificate, error) {
	cert, certPEM, err := readCert(certPath, hint)
	if err != nil {
		return tls.Certificate{}, err
	}
	keyPEM, err := readKey(keyPath, hint)
	if err != nil {
		return tls.Certificate{}, err
	}
	pair, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		// Never wrap the parse error's details into anything that might echo key bytes.
		return tls.Certificate{}, fmt.Errorf("%w: %s and %s do not form a key pair", ErrMismatch, certPath, keyPath)
	}
	pair.Leaf = cert
	if err := checkValidity(certPath, cert, now); err != nil {
		return tls.Certificate{}, err
	}
	return pair, nil
}

func checkValidity(path string, cert *x509.Certificate, now time.Time) error {
	if now.After(cert.NotAfter) {
		return fmt.Errorf("%w: %s expired on %s", ErrExpired, path, cert.NotAfter.UTC().Format(time.RFC3339))
	}
	if now.Before(cert.NotBefore) {
		return fmt.Errorf("%w: %s is valid only from %s; check this machine's clock", ErrExpired, path, cert.NotBefore.UTC().Format(time.RFC3339))
	}
	return nil
}

// loadCAPool reads ca.crt into a pool holding only the fleet CA: nothing from the system store is
// trusted on the link.
func loadCAPool(dir string, now time.Time) (*x509.CertPool, error) {
	path := filepath.Join(dir, CACertFile)
	cert, _, err := readCert(path, initHint(dir))
	if err != nil {
		return nil, err
	}
	if !cert.IsCA {
		return nil, fmt.Errorf("%w: %s is not a CA certificate", ErrMismatch, path)
	}
	if err := checkValidity(path, cert, now); err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return pool, nil
}

// loadSigner loads the CA certificate and key used to sign new leaves.
func loadSigner(dir string, now time.Time) (signer, error) {
	pair, err := loadPair(filepath.Join(dir, CACertFile), filepath.Join(dir, CAKeyFile), initHint(dir), now)
	if err != nil {
		return signer{}, fmt.Errorf("load CA: %w", err)
	}
	key, ok := pair.PrivateKey.(crypto.Signer)
	if !ok || !pair.Leaf.IsCA {
		return signer{}, fmt.Errorf("%w: %s is not a CA certificate", ErrMismatch, filepath.Join(dir, CACertFile))
	}
	return signer{cert: pair.Leaf, key: key}, nil
}
