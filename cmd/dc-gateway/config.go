package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/sucursal/sucursal/internal/configcheck"
	"github.com/sucursal/sucursal/internal/envflag"
	"github.com/sucursal/sucursal/internal/pki"
)

// fileConfig is the YAML file (--config, /etc/sucursal/dc-gateway.yaml): one key per flag, the
// flag's name with '_' for '-'. Flags and DC_GATEWAY_* variables override it.
type fileConfig struct {
	Listen                 string        `yaml:"listen"`
	PKI                    string        `yaml:"pki"`
	TargetURL              string        `yaml:"target_url"`
	TargetAPIKey           string        `yaml:"target_api_key"`
	MetricsListen          string        `yaml:"metrics_listen"`
	Name                   string        `yaml:"name"`
	MaxStreamsPerEdge      int64         `yaml:"max_streams_per_edge"`
	IdleTimeout            time.Duration `yaml:"idle_timeout"`
	LogLevel               string        `yaml:"log_level"`
	GuardModel             string        `yaml:"guard_model"`
	GuardURL               string        `yaml:"guard_url"`
	GuardAPIKey            string        `yaml:"guard_api_key"`
	GuardKind              string        `yaml:"guard_kind"`
	DraftVerifier          string        `yaml:"draft_verifier"`
	DraftVerifierURL       string        `yaml:"draft_verifier_url"`
	DraftVerifierTokenizer string        `yaml:"draft_verifier_tokenizer"`
	DrainGrace             time.Duration `yaml:"drain_grace"`
	GCPercent              int           `yaml:"gc_percent"`
	MemoryLimit            int64         `yaml:"memory_limit"`
	TrustFile              string        `yaml:"trust_file"`
	TrustNATS              string        `yaml:"trust_nats"`
	TrustNATSCreds         string        `yaml:"trust_nats_creds"`
	TrustNATSNKey          string        `yaml:"trust_nats_nkey"`
	TrustNATSCA            string        `yaml:"trust_nats_ca"`
	TrustBucket            string        `yaml:"trust_bucket"`
}

func toFile(o options) fileConfig {
	return fileConfig{Listen: o.listen, PKI: o.pkiDir, TargetURL: o.targetURL, TargetAPIKey: o.targetAPIKey,
		MetricsListen: o.metricsListen, Name: o.name, MaxStreamsPerEdge: o.maxStreams, IdleTimeout: o.idleTimeout,
		LogLevel: o.logLevel, GuardModel: o.guardModel, GuardURL: o.guardURL, GuardAPIKey: o.guardAPIKey,
		GuardKind: o.guardKind, DraftVerifier: o.draftVerifier, DraftVerifierURL: o.draftVerifierURL,
		DraftVerifierTokenizer: o.draftVerifierTokenizer, DrainGrace: o.drainGrace, GCPercent: o.gcPercent, MemoryLimit: o.memoryLimit,
		TrustFile: o.trust.file, TrustNATS: o.trust.natsURL, TrustNATSCreds: o.trust.creds, TrustNATSNKey: o.trust.nkey,
		TrustNATSCA: o.trust.natsCA, TrustBucket: o.trust.bucket}
}

// over sets o's file-configurable fields from f (the rest, such as --draft-pass-cost for
// experiments, are flags only).
func (f fileConfig) over(o options) options {
	o.listen, o.pkiDir, o.targetURL, o.targetAPIKey = f.Listen, f.PKI, f.TargetURL, f.TargetAPIKey
	o.metricsListen, o.name, o.maxStreams, o.idleTimeout, o.logLevel = f.MetricsListen, f.Name, f.MaxStreamsPerEdge, f.IdleTimeout, f.LogLevel
	o.guardModel, o.guardURL, o.guardAPIKey, o.guardKind = f.GuardModel, f.GuardURL, f.GuardAPIKey, f.GuardKind
	o.draftVerifier, o.draftVerifierURL, o.draftVerifierTokenizer = f.DraftVerifier, f.DraftVerifierURL, f.DraftVerifierTokenizer
	o.drainGrace, o.gcPercent, o.memoryLimit = f.DrainGrace, f.GCPercent, f.MemoryLimit
	o.trust.file, o.trust.natsURL, o.trust.creds, o.trust.nkey, o.trust.natsCA = f.TrustFile, f.TrustNATS, f.TrustNATSCreds, f.TrustNATSNKey, f.TrustNATSCA
	if f.TrustBucket != "" {
		o.trust.bucket = f.TrustBucket
	}
	return o
}

// loadFile reads path over o; every syntax, unknown-key and type problem is listed.
func loadFile(path string, o options) (options, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return o, fmt.Errorf("config: %w", err)
	}
	f := toFile(o)
	if ps := configcheck.Decode(b, &f); len(ps) > 0 {
		return o, fmt.Errorf("config %s:\n%w", path, configcheck.Errors(ps))
	}
	return f.over(o), nil
}

// resolve layers defaults < --config file < environment < flags: the file is read over the
// defaults, then every flag given (on the command line or by its DC_GATEWAY_* twin) is set again
// on the result, through a flag set bound to it.
func resolve(cmd *cobra.Command, file string) (options, error) {
	o := defaultOptions()
	if file != "" {
		var err error
		if o, err = loadFile(file, o); err != nil {
			return o, err
		}
	}
	over := pflag.NewFlagSet("resolve", pflag.ContinueOnError)
	bindFlags(over, &o)
	var errs []error
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if !envflag.Changed(cmd.Flags(), f.Name) || over.Lookup(f.Name) == nil {
			return
		}
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			if dst, ok := over.Lookup(f.Name).Value.(pflag.SliceValue); ok {
				errs = append(errs, dst.Replace(sv.GetSlice()))
				return
			}
		}
		errs = append(errs, over.Set(f.Name, f.Value.String()))
	})
	return o, errors.Join(errs...)
}

// checkFile is `dc-gateway config check FILE`: every problem at once, the PKI files included.
func checkFile(path string, now time.Time) configcheck.Report {
	r := configcheck.Report{File: path}
	b, err := os.ReadFile(path)
	if err != nil {
		r.Add(configcheck.Problem{Kind: configcheck.KindSyntax, Msg: fmt.Sprintf("cannot read the file: %v", err)})
		return r
	}
	f := toFile(defaultOptions())
	ps := configcheck.Decode(b, &f)
	r.Add(ps...)
	for _, p := range ps {
		if p.Kind == configcheck.KindSyntax {
			return r
		}
	}
	o := f.over(defaultOptions())
	r.Add(configcheck.Logic(o.validate())...)
	if o.pkiDir != "" {
		_, more := configcheck.CertPair(filepath.Join(o.pkiDir, pki.DCCertFile), filepath.Join(o.pkiDir, pki.DCKeyFile),
			filepath.Join(o.pkiDir, pki.CACertFile), now)
		r.Add(more...)
	}
	if o.draftVerifierTokenizer != "" {
		if _, err := os.Stat(o.draftVerifierTokenizer); err != nil {
			r.Add(configcheck.Problem{Kind: configcheck.KindLogic, Msg: fmt.Sprintf("draft_verifier_tokenizer: %v", err)})
		}
	}
	return r
}

// errReported ends a command whose output already said what was wrong: exit 1, nothing more.
var errReported = errors.New("reported")

func newConfigCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "config",
		Short: "Check a configuration file before restarting the service",
		Example: `  dc-gateway config check /etc/sucursal/dc-gateway.yaml
  dc-gateway config check /etc/sucursal/dc-gateway.yaml && systemctl restart dc-gateway`,
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "check FILE",
		Short: "List every problem in FILE at once: YAML syntax, unknown keys, logic, PKI files",
		Long: `check reads FILE as 'dc-gateway --config FILE' would and lists every problem in one run:
YAML syntax errors with their line and column, unknown keys with the closest known key, values of
the wrong type, the logic the gateway checks at start-up, and the PKI files it would load (ca.crt,
dc-gateway.crt and .key: missing, unreadable, key not the certificate's or readable by others, not
signed by the CA, expired). A syntax error stops the reading.

It checks the file alone: flags and DC_GATEWAY_* variables are not applied. Exit status 0 and one
OK line when the file is clean, 1 otherwise.`,
		Example: `  dc-gateway config check /etc/sucursal/dc-gateway.yaml`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			r := checkFile(args[0], time.Now())
			fmt.Fprint(cmd.OutOrStdout(), r.Text())
			if !r.OK() {
				return errReported
			}
			return nil
		},
	})
	return cmd
}
