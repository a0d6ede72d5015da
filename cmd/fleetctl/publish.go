package main

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/sucursal/sucursal/internal/fleet"
	"github.com/sucursal/sucursal/internal/manifest"
)

func newPublishCommand() *cobra.Command {
	var nf natsFlags
	var req fleet.PublishRequest
	var file, keyFile string
	var quiet bool
	cmd := &cobra.Command{
		Use:   "publish",
		Short: "Upload a model artifact and record its signed manifest (does not deploy it)",
		RunE: func(cmd *cobra.Command, _ []string) error {
			if file == "" || keyFile == "" {
				return errors.New("--file and --key are required")
			}
			key, err := manifest.ReadPrivateKeyFile(keyFile)
			if err != nil {
				return err
			}
			f, err := os.Open(file)
			if err != nil {
				return err
			}
			defer f.Close()
			st, err := f.Stat()
			if err != nil {
				return err
			}
			js, closeConn, err := nf.connect("publish")
			if err != nil {
				return err
			}
			defer closeConn()
			req.Artifact = f
			if !quiet {
				bar := progressbar.DefaultBytes(st.Size(), "uploading")
				r := progressbar.NewReader(f, bar)
				req.Artifact = &r
				defer bar.Close()
			}
			_, m, err := fleet.Publish(cmd.Context(), js, fleet.Config{}, key, req)
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "\npublished %s %s: %s, %d bytes, runtime %s, signed by %s, expires %s\n",
				m.Role, m.Version, m.Digest, m.Size, m.Runtime, m.Signer, m.Expires.Format(time.RFC3339))
			return nil
		},
	}
	nf.register(cmd)
	fl := cmd.Flags()
	fl.StringVar(&req.Role, "role", "", "model role, e.g. drafter, guard, local")
	fl.StringVar(&req.Version, "version", "", "version; versions are immutable once published")
	fl.StringVar(&req.Runtime, "runtime", manifest.RuntimeOllama, "runtime: ollama, ovms or llamacpp")
	fl.StringVar(&req.TokenizerFingerprint, "tokenizer-fingerprint", "", "tokenizer fingerprint carried in the manifest")
	fl.DurationVar(&req.Validity, "validity", 90*24*time.Hour, "how long edges accept the manifest")
	fl.StringVar(&file, "file", "", "artifact file (a GGUF for ollama)")
	fl.StringVar(&keyFile, "key", "", "signing key from 'fleetctl keys gen'")
	fl.BoolVar(&quiet, "quiet", false, "no progress bar")
	return cmd
}
