package pki

import (
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Options says what Init should make sure exists in Dir.
type Options struct {
	Dir    string
	Edges  []string // edge ids to enrol; existing ones are kept unless Force
	DCSANs []string // extra DNS names or IPs for the dc-gateway certificate
	// Force replaces the CA and therefore re-issues everything it signed: the dc-gateway
	// certificate and every edge already in Dir/edges plus those in Edges.
	Force bool
	// Validity is the lifetime of new dc-gateway and edge certificates (DefaultValidity if 0),
	// capped at the CA's expiry. The CA itself lives CAValidity.
	Validity time.Duration
	Now      func() time.Time // clock for NotBefore/NotAfter; time.Now if nil
}

// Result says what Init did. Paths are relative to Dir and name certificates; each key sits next
// to its certificate with the .key extension.
type Result struct {
	Created  []string // did not exist before
	Replaced []string // existed and were re-issued because of Force
	Kept     []string // existed and were left untouched
	Warnings []string // kept certificates that an operator should look at (expired, expiring)
}

// expiringSoon is how far ahead Init and Inspect warn about a kept certificate running out.
const expiringSoon = 30 * 24 * time.Hour

// pending is a certificate Init will write once every check has passed.
type pending struct {
	rel      string
	certPath string
	keyPath  string
	is       issued
	existed  bool
}

// Init creates the fleet PKI in opts.Dir, or extends an existing one. Everything is checked and
// signed in memory before the first file is written, so a bad edge id or a mismatched file never
// leaves a half-updated directory.
func Init(opts Options) (Result, error) {
	if opts.Dir == "" {
		return Result{}, errors.New("pki: no directory given")
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Validity < 0 {
		return Result{}, fmt.Errorf("pki: validity %s is negative", opts.Validity)
	}
	if opts.Validity == 0 {
		opts.Validity = DefaultValidity
	}
	var errs []error
	for _, id := range opts.Edges {
		errs = append(errs, ValidateEdgeID(id))
	}
	sans, err := ParseSANs(append(slices.Clone(defaultDCSANs), opts.DCSANs...))
	errs = append(errs, err)
	if err := errors.Join(errs...); err != nil {
		return Result{}, err
	}
	now := opts.Now()
	dir := opts.Dir

	var res Result
	var todo []pending
	ca, caPending, err := planCA(dir, opts.Force, now)
	if err != nil {
		return Result{}, err
	}
	if caPending != nil {
		todo = append(todo, *caPending)
	}

	dcPending, err := planDC(dir, ca, sans, opts, now, &res)
	if err != nil {
		return Result{}, err
	}
	if dcPending != nil {
		todo = append(todo, *dcPending)
	}

	edges := slices.Clone(opts.Edges)
	if opts.Force {
		// A new CA orphans every edge it did not sign; re-issue them all, not only those named.
		existing, err := existingEdges(dir)
		if err != nil {
			return Result{}, err
		}
		edges = append(existing, edges...)
	}
	slices.Sort(edges)
	for _, id := range slices.Compact(edges) {
		p, err := planEdge(dir, ca, id, opts, now, &res)
		if err != nil {
			return Result{}, err
		}
		if p != nil {
			todo = append(todo, *p)
		}
	}

	if err := ensureDir(dir); err != nil {
		return Result{}, fmt.Errorf("pki: %s: %w", dir, err)
	}
	if err := ensureDir(filepath.Join(dir, EdgesDir)); err != nil {
		return Result{}, fmt.Errorf("pki: %s: %w", filepath.Join(dir, EdgesDir), err)
	}
	// The CA is first in todo: if a run dies midway, the next run sees the CA that signed what exists.
	for _, p := range todo {
		if err := writePair(p.certPath, p.keyPath, p.is); err != nil {
			return res, fmt.Errorf("pki: %w", err)
		}
		if p.existed && p.rel == CACertFile {
			res.Warnings = append(res.Warnings, "the CA was replaced: every edge needs the new ca.crt and its re-issued edges/<id> files, and dc-gateway must be restarted")
		}
		if p.existed {
			res.Replaced = append(res.Replaced, p.rel)
		} else {
			res.Created = append(res.Created, p.rel)
		}
	}
	return res, nil
}

// planCA loads the existing CA, or signs a new one in memory when there is none or Force is set.
func planCA(dir string, force bool, now time.Time) (signer, *pending, error) {
	certPath, keyPath := filepath.Join(dir, CACertFile), filepath.Join(dir, CAKeyFile)
	certOK, err := exists(certPath)
	if err != nil {
		return signer{}, nil, fmt.Errorf("pki: %w", err)
	}
	keyOK, err := exists(keyPath)
	if err != nil {
		return signer{}, nil, fmt.Errorf("pki: %w", err)
	}
	switch {
	case force:
	case certOK && keyOK:
		s, err := loadSigner(dir, now)
		if err != nil {
			return signer{}, nil, fmt.Errorf("pki: %w (to start over with a new CA, which re-enrols every edge: --force)", err)
		}
		return s, nil, nil
	case certOK != keyOK:
		have, lack := certPath, keyPath
		if keyOK {
			have, lack = keyPath, certPath
		}
		return signer{}, nil, fmt.Errorf("pki: %w: %s exists but %s does not; restore it from backup, or --force to create a new CA and re-enrol every edge", ErrMismatch, have, lack)
	default:
		if orphans, err := leafCerts(dir); err != nil {
			return signer{}, nil, err
		} else if len(orphans) > 0 {
			return signer{}, nil, fmt.Errorf("pki: %w: no CA in %s but %s exists (signed by a CA that is gone); restore ca.crt and ca.key, or --force to re-issue everything", ErrMismatch, dir, orphans[0])
		}
	}
	is, err := issueCA(now)
	if err != nil {
		return signer{}, nil, fmt.Errorf("pki: %w", err)
	}
	p := &pending{rel: CACertFile, certPath: certPath, keyPath: keyPath, is: is, existed: certOK || keyOK}
	return signer{cert: is.cert, key: is.key}, p, nil
}

func planDC(dir string, ca signer, sans SANs, opts Options, now time.Time, res *Result) (*pending, error) {
	certPath, keyPath := filepath.Join(dir, DCCertFile), filepath.Join(dir, DCKeyFile)
	ok, err := exists(certPath)
	if err != nil {
		return nil, fmt.Errorf("pki: %w", err)
	}
	if ok && !opts.Force {
		cert, err := checkKept(certPath, keyPath, ca, now, res)
		if err != nil {
			return nil, err
		}
		if missing := missingSANs(cert.DNSNames, cert.IPAddresses, sans); len(missing) > 0 {
			return nil, fmt.Errorf("pki: %s exists without SAN %s; delete %s and %s to re-issue it (the CA and edges are kept)",
				certPath, strings.Join(missing, ", "), certPath, keyPath)
		}
		res.Kept = append(res.Kept, DCCertFile)
		return nil, nil
	}
	if ok {
		// Re-issuing under --force must not silently drop names given on an earlier run.
		if old, _, err := readCert(certPath, ""); err == nil {
			for _, ip := range old.IPAddresses {
				if !slices.ContainsFunc(sans.IPs, ip.Equal) {
					sans.IPs = append(sans.IPs, ip)
				}
			}
			for _, d := range old.DNSNames {
				if !slices.Contains(sans.DNS, d) {
					sans.DNS = append(sans.DNS, d)
				}
			}
		}
	}
	is, err := issueDCGateway(ca, sans, now, opts.Validity)
	if err != nil {
		return nil, fmt.Errorf("pki: %w", err)
	}
	return &pending{rel: DCCertFile, certPath: certPath, keyPath: keyPath, is: is, existed: ok}, nil
}

func planEdge(dir string, ca signer, id string, opts Options, now time.Time, res *Result) (*pending, error) {
	certPath, keyPath := EdgeCertPath(dir, id), EdgeKeyPath(dir, id)
	rel := filepath.ToSlash(filepath.Join(EdgesDir, id+".crt"))
	ok, err := exists(certPath)
	if err != nil {
		return nil, fmt.Errorf("pki: %w", err)
	}
	if ok && !opts.Force {
		cert, err := checkKept(certPath, keyPath, ca, now, res)
		if err != nil {
			return nil, err
		}
		if got, err := EdgeID(cert); err != nil || got != id {
			return nil, fmt.Errorf("pki: %w: %s does not carry edge id %q; delete it and its key to re-issue", ErrMismatch, certPath, id)
		}
		res.Kept = append(res.Kept, rel)
		return nil, nil
	}
	is, err := issueEdge(ca, id, now, opts.Validity)
	if err != nil {
		return nil, fmt.Errorf("pki: %w", err)
	}
	return &pending{rel: rel, certPath: certPath, keyPath: keyPath, is: is, existed: ok}, nil
}

// checkKept makes sure a certificate Init is about to keep still belongs to this PKI, and records
// a warning if it has expired or is about to.
func checkKept(certPath, keyPath string, ca signer, now time.Time, res *Result) (*x509.Certificate, error) {
	cert, _, err := readCert(certPath, "")
	if err != nil {
		return nil, fmt.Errorf("pki: %w", err)
	}
	if err := cert.CheckSignatureFrom(ca.cert); err != nil {
		return nil, fmt.Errorf("pki: %w: %s is not signed by this CA; delete it and its key to re-issue, or --force to re-issue everything", ErrMismatch, certPath)
	}
	if ok, err := exists(keyPath); err != nil {
		return nil, fmt.Errorf("pki: %w", err)
	} else if !ok {
		return nil, fmt.Errorf("pki: %w: %s exists without %s; delete it to re-issue", ErrMismatch, certPath, keyPath)
	}
	switch {
	case now.After(cert.NotAfter):
		res.Warnings = append(res.Warnings, fmt.Sprintf("%s expired on %s; delete it and its key, then run the same command to renew it",
			certPath, cert.NotAfter.UTC().Format(time.DateOnly)))
	case now.Add(expiringSoon).After(cert.NotAfter):
		res.Warnings = append(res.Warnings, fmt.Sprintf("%s expires on %s", certPath, cert.NotAfter.UTC().Format(time.DateOnly)))
	}
	return cert, nil
}

func missingSANs(dns []string, ips []net.IP, want SANs) []string {
	var missing []string
	for _, d := range want.DNS {
		if !slices.Contains(dns, d) {
			missing = append(missing, d)
		}
	}
	for _, ip := range want.IPs {
		if !slices.ContainsFunc(ips, ip.Equal) {
			missing = append(missing, ip.String())
		}
	}
	return missing
}

// existingEdges lists the edge ids that have a certificate in dir/edges.
func existingEdges(dir string) ([]string, error) {
	entries, err := os.ReadDir(filepath.Join(dir, EdgesDir))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("pki: list edges: %w", err)
	}
	var ids []string
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".crt")
		if ok && !e.IsDir() && ValidateEdgeID(id) == nil {
			ids = append(ids, id)
		}
	}
	return ids, nil
}

// leafCerts lists the dc-gateway and edge certificates present in dir.
func leafCerts(dir string) ([]string, error) {
	var out []string
	if ok, err := exists(filepath.Join(dir, DCCertFile)); err != nil {
		return nil, fmt.Errorf("pki: %w", err)
	} else if ok {
		out = append(out, filepath.Join(dir, DCCertFile))
	}
	ids, err := existingEdges(dir)
	for _, id := range ids {
		out = append(out, EdgeCertPath(dir, id))
	}
	return out, err
}

// AddEdges enrols edges under the CA already in dir. Unlike Init it never creates a CA: pointed at
// the wrong directory, it fails instead of quietly starting a second fleet.
func AddEdges(dir string, ids []string, validity time.Duration, now func() time.Time) (Result, error) {
	if len(ids) == 0 {
		return Result{}, errors.New("pki: no edge ids given")
	}
	for _, name := range []string{CACertFile, CAKeyFile} {
		p := filepath.Join(dir, name)
		if ok, err := exists(p); err != nil {
			return Result{}, fmt.Errorf("pki: %w", err)
		} else if !ok {
			return Result{}, fmt.Errorf("pki: %w: %s does not exist; %s", ErrMissing, p, initHint(dir))
		}
	}
	return Init(Options{Dir: dir, Edges: ids, Validity: validity, Now: now})
}
