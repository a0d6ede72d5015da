package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/sucursal/sucursal/internal/envflag"
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
		Long: `publish uploads the artifact to the fleet's object store and records its signed manifest in
the catalog; 'fleetctl rollout start' deploys it. A version is immutable: publishing one that exists
is refused. The progress bar is drawn only when stderr is a terminal, and is full only once the
manifest is recorded (a refused publish never shows 100 %).`,
		Example: `  fleetctl publish --nats nats://fleet.dc:4222 --key signing.key --role drafter --version 1.4.0 --file drafter-1.4.0.gguf
  fleetctl publish --role guard --version 2.0.0 --runtime ovms --file guard.tar --key signing.key --quiet`,
		RunE: func(cmd *cobra.Command, _ []string) error {
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
			var bar *uploadBar
			if !quiet && isTerminal(cmd.ErrOrStderr()) {
				bar = newUploadBar(cmd.ErrOrStderr(), st.Size(), 65*time.Millisecond)
				req.Artifact = bar.reader(f)
			}
			_, m, err := fleet.Publish(cmd.Context(), js, fleet.Config{}, key, req)
			bar.done(err)
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "published %s %s: %s, %d bytes, runtime %s, signed by %s, expires %s\n",
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
	fl.BoolVar(&quiet, "quiet", false, "no progress bar (there is none either when stderr is not a terminal)")
	for _, name := range []string{"role", "version", "file", "key"} {
		_ = cmd.MarkFlagRequired(name)
	}
	// What is published is typed each time: a leftover FLEETCTL_VERSION or FLEETCTL_FILE must not
	// publish the wrong artifact under a name. The signing key, validity and NATS stay in the
	// environment.
	for _, name := range []string{"role", "version", "file", "runtime", "tokenizer-fingerprint"} {
		envflag.NoEnv(fl, name)
	}
	return cmd
}

// uploadBar draws an upload's progress. It holds back the artifact's last byte until the manifest
// is recorded, so a publish refused after the upload (the version published meanwhile, the catalog
// unreachable) never shows a full bar.
type uploadBar struct {
	bar        *progressbar.ProgressBar
	size, read int64
}

// newUploadBar redraws at most every throttle.
func newUploadBar(w io.Writer, size int64, throttle time.Duration) *uploadBar {
	return &uploadBar{size: size, bar: progressbar.NewOptions64(size,
		progressbar.OptionSetDescription("uploading"), progressbar.OptionSetWriter(w),
		progressbar.OptionShowBytes(true), progressbar.OptionShowTotalBytes(true), progressbar.OptionSetWidth(10),
		progressbar.OptionThrottle(throttle), progressbar.OptionShowCount(), progressbar.OptionFullWidth(),
		progressbar.OptionOnCompletion(func() { fmt.Fprint(w, "\n") }), progressbar.OptionSetRenderBlankState(true))}
}

func (u *uploadBar) reader(r io.Reader) io.Reader { return &barReader{r: r, u: u} }

// done finishes the bar after a successful publish, or leaves it where it stopped.
func (u *uploadBar) done(err error) {
	if u == nil {
		return
	}
	if err == nil {
		_ = u.bar.Finish()
		return
	}
	_ = u.bar.Exit()
}

type barReader struct {
	r io.Reader
	u *uploadBar
}

func (b *barReader) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if n > 0 {
		show := min(int64(n), b.u.size-1-b.u.read) // the last byte shows once the manifest is recorded
		b.u.read += int64(n)
		if show > 0 {
			_ = b.u.bar.Add64(show)
		}
	}
	return n, err
}
