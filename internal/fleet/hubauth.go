package fleet

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nkeys"

	"github.com/sucursal/sucursal/internal/fleetapi"
	"github.com/sucursal/sucursal/internal/pki"
	"github.com/sucursal/sucursal/internal/trust"
)

// NATS credentials (nkey seeds) in the PKI directory, beside the certificates. An edge's seed
// sits with its certificate (edges/<id>.nk), so the files copied to a NUC are one folder's worth.
const (
	ControllerSeedFile = "nats/controller.nk"
	OperatorSeedFile   = "nats/operator.nk"
	GatewaySeedFile    = "nats/gateway.nk"
)

// GatewayInboxPrefix is the reply prefix of a dc-gateway's NATS connection (its subscribe
// permission), so that it reads no one else's replies.
const GatewayInboxPrefix = trust.GatewayInboxPrefix

// EdgeSeedPath is where an edge's nkey seed lives under dir.
func EdgeSeedPath(dir, id string) string { return filepath.Join(dir, pki.EdgesDir, id+".nk") }

// EnsureCredentials creates the nkey seeds that are missing: the controller's, the operators',
// the gateways' and one per edge in edges. Existing seeds are kept. It returns the files created.
func EnsureCredentials(dir string, edges []string) ([]string, error) {
	paths := []string{filepath.Join(dir, ControllerSeedFile), filepath.Join(dir, OperatorSeedFile), filepath.Join(dir, GatewaySeedFile)}
	for _, id := range edges {
		if err := pki.ValidateEdgeID(id); err != nil {
			return nil, err
		}
		paths = append(paths, EdgeSeedPath(dir, id))
	}
	var created []string
	for _, p := range paths {
		ok, err := writeNewSeed(p)
		if err != nil {
			return created, err
		}
		if ok {
			rel, _ := filepath.Rel(dir, p)
			created = append(created, filepath.ToSlash(rel))
		}
	}
	return created, nil
}

// RotateEdgeSeed replaces an edge's nkey seed with a new one (a replacement NUC for a revoked id:
// the old seed may be on the stolen one).
func RotateEdgeSeed(dir, id string) error {
	if err := pki.ValidateEdgeID(id); err != nil {
		return err
	}
	path := EdgeSeedPath(dir, id)
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("fleet: %w", err)
	}
	_, err := writeNewSeed(path)
	return err
}

// writeNewSeed writes a fresh user seed to path unless the file exists. O_EXCL with mode 0600:
// the seed is never readable by others, not even for an instant.
func writeNewSeed(path string) (bool, error) {
	if _, err := os.Stat(path); err == nil {
		return false, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return false, fmt.Errorf("fleet: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return false, fmt.Errorf("fleet: %w", err)
	}
	kp, err := nkeys.CreateUser()
	if err != nil {
		return false, fmt.Errorf("fleet: nkey: %w", err)
	}
	seed, err := kp.Seed()
	if err != nil {
		return false, fmt.Errorf("fleet: nkey: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return false, fmt.Errorf("fleet: %w", err)
	}
	_, werr := f.Write(append(seed, '\n'))
	if err := errors.Join(werr, f.Sync(), f.Close()); err != nil {
		os.Remove(path)
		return false, fmt.Errorf("fleet: write %s: %w", path, err)
	}
	return true, nil
}

// publicKey reads a seed file and returns its public key, refusing a seed others can read.
func publicKey(path string) (string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return "", fmt.Errorf("fleet: %w", err)
	}
	if st.Mode().Perm()&0o077 != 0 {
		return "", fmt.Errorf("fleet: %s has mode %04o, want 0600 (run: chmod 600 %s)", path, st.Mode().Perm(), path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("fleet: %w", err)
	}
	kp, err := nkeys.FromSeed([]byte(strings.TrimSpace(string(data))))
	if err != nil {
		return "", fmt.Errorf("fleet: %s is not an nkey seed", path)
	}
	defer kp.Wipe()
	return kp.PublicKey()
}

// GatewayPermissions is what a dc-gateway needs: watch the trust list, nothing else.
func GatewayPermissions(bucket string) Permissions {
	if bucket == "" {
		bucket = trust.DefaultBucket
	}
	stream, api := "KV_"+bucket, "$JS.API."
	return Permissions{
		Publish: SubjectPermission{Allow: []string{
			api + "STREAM.INFO." + stream,
			api + "CONSUMER.CREATE." + stream + ".>", api + "CONSUMER.DELETE." + stream + ".>",
			"$JS.FC." + stream + ".>",
		}},
		Subscribe: SubjectPermission{Allow: []string{GatewayInboxPrefix + ".>"}},
	}
}

// HubAuth is what a hub started with credentials enforces: one nkey user per role and per edge,
// and TLS with the fleet PKI's hub certificate.
type HubAuth struct {
	Users []*server.NkeyUser
	TLS   *tls.Config

	dir         string
	buckets     fleetapi.Buckets
	trustBucket string
	ca          *x509.Certificate
	list        *trust.List // nil: no DIR/trust.json, every edge with a seed gets a user
	// For the hub's own connection (it runs the controller).
	controllerSeed, caFile string
}

// LoadHubAuth builds the hub's users from the seeds in the PKI directory: the controller and the
// operators may do anything, a gateway only watch the trust list, and each edge exactly what
// EdgePermissions allows it. An edge the trust list revoked or does not enrol gets no user (when
// DIR/trust.json exists), so a stolen NUC loses the fleet's NATS too; a running hub follows the
// list published to the trust bucket (RunHub).
func LoadHubAuth(dir string, b fleetapi.Buckets, trustBucket string) (*HubAuth, error) {
	conf, err := pki.HubTLS(dir)
	if err != nil {
		return nil, err
	}
	ca, err := pki.LoadCACert(dir)
	if err != nil {
		return nil, err
	}
	a := &HubAuth{TLS: conf, dir: dir, buckets: b, trustBucket: trustBucket, ca: ca,
		controllerSeed: filepath.Join(dir, ControllerSeedFile), caFile: filepath.Join(dir, pki.CACertFile)}
	if _, err := os.Stat(filepath.Join(dir, trust.FileName)); err == nil {
		if a.list, err = trust.ReadFile(filepath.Join(dir, trust.FileName), ca); err != nil {
			return nil, err
		}
	}
	if a.Users, err = a.usersFor(a.list); err != nil {
		return nil, err
	}
	return a, nil
}

// usersFor lists the users for a trust list (nil: every edge that has a seed).
func (a *HubAuth) usersFor(list *trust.List) ([]*server.NkeyUser, error) {
	var users []*server.NkeyUser
	for _, role := range []struct {
		file  string
		perms *Permissions
	}{{ControllerSeedFile, nil}, {OperatorSeedFile, nil}, {GatewaySeedFile, ptr(GatewayPermissions(a.trustBucket))}} {
		pub, err := publicKey(filepath.Join(a.dir, role.file))
		if err != nil {
			return nil, err
		}
		users = append(users, &server.NkeyUser{Nkey: pub, Permissions: serverPerms(role.perms)})
	}
	ids, err := pki.Edges(a.dir)
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		if list != nil && list.Find(id) == nil {
			continue
		}
		path := EdgeSeedPath(a.dir, id)
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			continue // enrolled before credentials existed: fleetctl hub --pki creates it
		}
		pub, err := publicKey(path)
		if err != nil {
			return nil, err
		}
		p, err := EdgePermissions(id, a.buckets)
		if err != nil {
			return nil, err
		}
		users = append(users, &server.NkeyUser{Nkey: pub, Permissions: serverPerms(&p)})
	}
	return users, nil
}

// clientOptions are the hub's own connection options (as the controller).
func (a *HubAuth) clientOptions() ([]nats.Option, error) {
	o, err := nats.NkeyOptionFromSeed(a.controllerSeed)
	if err != nil {
		return nil, fmt.Errorf("fleet: controller nkey: %w", err)
	}
	return []nats.Option{o, nats.RootCAs(a.caFile)}, nil
}

func serverPerms(p *Permissions) *server.Permissions {
	if p == nil {
		return nil
	}
	return &server.Permissions{
		Publish:   &server.SubjectPermission{Allow: p.Publish.Allow},
		Subscribe: &server.SubjectPermission{Allow: p.Subscribe.Allow},
	}
}

func ptr[T any](v T) *T { return &v }
