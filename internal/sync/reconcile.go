package sync

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/sucursal/sucursal/internal/fleetapi"
	"github.com/sucursal/sucursal/internal/manifest"
)

// Reasons reported in status and logs when a desired version is not installed.
const (
	ReasonUnknownSigner      = "unknown_signer"
	ReasonBadSignature       = "bad_signature"
	ReasonExpired            = "expired"
	ReasonMalformed          = "malformed"
	ReasonOlderVersion       = "older_version"
	ReasonRoleMismatch       = "role_mismatch"
	ReasonSameVersion        = "same_version_other_digest"
	ReasonRuntimeUnsupported = "runtime_unsupported"
	ReasonDigestMismatch     = "digest_mismatch"
	ReasonSizeMismatch       = "size_mismatch"
	ReasonDownload           = "download_error"
	ReasonInstall            = "install_error"
	ReasonSmokeTest          = "smoke_test_failed"
)

func verifyReason(err error) string {
	switch {
	case errors.Is(err, manifest.ErrUnknownSigner):
		return ReasonUnknownSigner
	case errors.Is(err, manifest.ErrBadSignature):
		return ReasonBadSignature
	case errors.Is(err, manifest.ErrExpired):
		return ReasonExpired
	}
	return ReasonMalformed
}

// reconcile brings one role to its desired entry, or records why it will not.
func (a *Agent) reconcile(ctx context.Context, f *Fetcher, role string, d fleetapi.Desired) {
	fp := fingerprint(d.Manifest)
	a.mu.Lock()
	done := a.rejected[fp]
	// The same refused entry under a new rollout: say so, or that rollout would wait for us.
	relabel := done && a.status[role].State == fleetapi.StateRejected && a.status[role].Rollout != d.Rollout
	ri := a.inst.Roles[role]
	var cur, prev *Model
	if ri != nil {
		cur, prev = ri.Current, ri.Previous
	}
	a.mu.Unlock()
	if relabel {
		a.setStatus(role, func(rs *fleetapi.RoleStatus) { rs.Rollout = d.Rollout })
	}
	if done {
		return
	}
	now := a.deps.Now()
	m, err := a.deps.Trust.Verify(d.Manifest, now)
	if err != nil {
		a.reject(role, fp, d.Rollout, "", verifyReason(err), err)
		return
	}
	if m.Role != role {
		a.reject(role, fp, d.Rollout, m.Version, ReasonRoleMismatch, fmt.Errorf("manifest for role %s", m.Role))
		return
	}
	if cur != nil {
		switch c := manifest.CompareVersions(m.Version, cur.Version); {
		case c == 0 && m.Digest == cur.Digest:
			a.setStatus(role, func(rs *fleetapi.RoleStatus) {
				rs.Desired, rs.Rollout, rs.State = m.Version, d.Rollout, fleetapi.StateIdle
				rs.BytesDone, rs.BytesTotal = 0, 0
			})
			return
		case c == 0:
			a.reject(role, fp, d.Rollout, m.Version, ReasonSameVersion, errors.New("same version, different digest"))
			return
		case c < 0:
			if err := a.allowDowngrade(d, role, cur.Version, m.Version, now); err != nil {
				a.reject(role, fp, d.Rollout, m.Version, ReasonOlderVersion, err)
				return
			}
		}
	}
	inst := a.deps.Installers[m.Runtime]
	if inst == nil {
		a.reject(role, fp, d.Rollout, m.Version, ReasonRuntimeUnsupported, fmt.Errorf("runtime %s", m.Runtime))
		return
	}
	if prev != nil && prev.Digest == m.Digest && prev.Runtime == m.Runtime {
		// The kept previous version is still installed: switching back is instant.
		a.commit(ctx, role, modelOf(m, prev.Ref), d.Rollout)
		return
	}
	a.setStatus(role, func(rs *fleetapi.RoleStatus) {
		rs.Desired, rs.Rollout, rs.State = m.Version, d.Rollout, fleetapi.StateDownloading
		rs.BytesDone, rs.BytesTotal = 0, m.Size
	})
	var lastReport time.Time
	path, err := f.Fetch(ctx, m.Object, m.DigestHex(), m.Size, func(done, total int64) {
		if t := time.Now(); t.Sub(lastReport) > 500*time.Millisecond || done == total {
			lastReport = t
			a.setStatus(role, func(rs *fleetapi.RoleStatus) { rs.BytesDone = done })
		}
	})
	switch {
	case ctx.Err() != nil:
		return
	case errors.Is(err, ErrDigestMismatch):
		a.reject(role, fp, d.Rollout, m.Version, ReasonDigestMismatch, err)
		return
	case errors.Is(err, ErrSizeMismatch):
		a.reject(role, fp, d.Rollout, m.Version, ReasonSizeMismatch, err)
		return
	case err != nil:
		a.fail(role, m.Version, ReasonDownload, err, false, fp) // transient: retried
		return
	}

	a.setStatus(role, func(rs *fleetapi.RoleStatus) { rs.State = fleetapi.StateInstalling })
	ref, err := inst.Install(ctx, m, path)
	if err != nil {
		if ctx.Err() != nil {
			return
		}
		reason := ReasonInstall
		if errors.Is(err, ErrSmokeTest) {
			reason = ReasonSmokeTest
		}
		a.fail(role, m.Version, reason, err, true, fp)
		return
	}
	a.commit(ctx, role, modelOf(m, ref), d.Rollout)
}

func (a *Agent) allowDowngrade(d fleetapi.Desired, role, from, to string, now time.Time) error {
	if d.Rollback == nil {
		return fmt.Errorf("version %s is older than installed %s and no rollback directive", to, from)
	}
	rb, err := a.deps.Trust.VerifyRollback(*d.Rollback, now)
	if err != nil {
		return fmt.Errorf("rollback directive: %w", err)
	}
	if rb.Role != role || rb.FromVersion != from || rb.ToVersion != to {
		return fmt.Errorf("rollback directive is for %s %s->%s, not %s->%s", rb.Role, rb.FromVersion, rb.ToVersion, from, to)
	}
	return nil
}

// commit makes m the current version, keeps the old current as previous, collects the one before.
func (a *Agent) commit(ctx context.Context, role string, m Model, rollout string) {
	a.mu.Lock()
	ri := a.inst.Roles[role]
	if ri == nil {
		ri = &roleInstall{}
		a.inst.Roles[role] = ri
	}
	evicted := ri.Previous
	if ri.Current != nil && ri.Current.Digest != m.Digest {
		ri.Previous = ri.Current
	}
	ri.Current = &m
	if evicted != nil && (evicted.Digest == m.Digest || (ri.Previous != nil && evicted.Digest == ri.Previous.Digest)) {
		evicted = nil // still in use
	}
	err := saveInstalled(a.cfg.DataDir, a.inst)
	prevVersion := ""
	if ri.Previous != nil {
		prevVersion = ri.Previous.Version
	}
	a.mu.Unlock()
	if err != nil {
		a.log.Error("could not persist installed state", "err", err)
	}
	a.met.installs.WithLabelValues("ok").Inc()
	a.met.version.WithLabelValues(role).Set(float64(m.Manifest.Created.Unix()))
	a.log.Info("model installed", "role", role, "version", m.Version, "previous", prevVersion, "rollout", rollout)
	if a.deps.OnSwitch != nil {
		a.deps.OnSwitch(m)
	}
	a.setStatus(role, func(rs *fleetapi.RoleStatus) {
		rs.Version, rs.Digest, rs.Previous, rs.Desired = m.Version, m.Digest, prevVersion, m.Version
		rs.State, rs.Reason, rs.LastError, rs.FailedVersion = fleetapi.StateIdle, "", "", ""
		rs.BytesDone, rs.BytesTotal = 0, 0
	})
	if evicted != nil {
		a.collect(ctx, *evicted)
	}
}

func (a *Agent) collect(ctx context.Context, m Model) {
	if inst := a.deps.Installers[m.Runtime]; inst != nil {
		if err := inst.Remove(ctx, m.Ref); err != nil {
			a.log.Warn("could not remove old model from runtime", "role", m.Role, "version", m.Version, "err", err)
		}
	}
	a.mu.Lock()
	f := a.fetcher
	a.mu.Unlock()
	if f != nil {
		if err := removeIfExists(f.ArtifactPath(m.Manifest.DigestHex())); err != nil {
			a.log.Warn("could not remove old artifact", "role", m.Role, "version", m.Version, "err", err)
		}
	}
}

// reject records a manifest or artifact the edge refuses. The status names the rollout whose
// desired entry it refused, so that the controller fails that rollout's wave at once (even when
// the manifest could not be verified and so has no version to name).
func (a *Agent) reject(role, fp, rollout, version, reason string, err error) {
	a.mu.Lock()
	a.rejected[fp] = true
	a.mu.Unlock()
	a.met.installs.WithLabelValues(reason).Inc()
	a.log.Warn("desired version rejected; running model stays", "role", role, "version", version, "reason", reason, "err", err)
	a.setStatus(role, func(rs *fleetapi.RoleStatus) {
		rs.State, rs.Reason, rs.LastError, rs.FailedVersion = fleetapi.StateRejected, reason, err.Error(), version
		rs.Desired, rs.Rollout, rs.BytesDone, rs.BytesTotal = version, rollout, 0, 0
	})
}

func (a *Agent) fail(role, version, reason string, err error, sticky bool, fp string) {
	if sticky {
		a.mu.Lock()
		a.rejected[fp] = true
		a.mu.Unlock()
	}
	a.met.installs.WithLabelValues(reason).Inc()
	a.log.Warn("install failed; running model stays", "role", role, "version", version, "reason", reason, "err", err)
	a.setStatus(role, func(rs *fleetapi.RoleStatus) {
		rs.State, rs.Reason, rs.LastError, rs.FailedVersion = fleetapi.StateFailed, reason, err.Error(), version
	})
}
