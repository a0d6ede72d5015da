package sync

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"golang.org/x/time/rate"
)

// Errors callers branch on.
var (
	ErrDigestMismatch = errors.New("sync: artifact digest mismatch")
	ErrSizeMismatch   = errors.New("sync: artifact size mismatch")
)

// DefaultWindow is how many chunks are received between two persisted progress records: the most
// a crash can cost is one window (4 MiB with the object store's default 128 KiB chunks).
const DefaultWindow = 32

// PrefetchBytes bounds the chunks buffered ahead of the disk writer (the pull consumer asks for
// more at half of it). Measured here, 8, 16 and 32 MiB all keep 20 parallel downloads within the
// noise of the stock Get's throughput, so the smallest wins for memory (see docs/FLEET.md).
const PrefetchBytes = 8 << 20

// IdleTimeout ends a download attempt when no chunk arrived for this long.
const IdleTimeout = 2 * time.Minute

// progress is what survives a crash: where in the object's chunk stream we are and the hash state
// of everything already on disk, so a resume neither re-reads the partial file nor restarts.
type progress struct {
	NUID      string `json:"nuid"`
	NextSeq   uint64 `json:"next_seq"`
	Bytes     int64  `json:"bytes"`
	Chunks    uint64 `json:"chunks"`
	HashState []byte `json:"hash_state"`
}

// FetchCounters are cumulative over the life of a Fetcher.
type FetchCounters struct {
	Chunks    atomic.Uint64 // chunk messages received from NATS, including re-downloads after a crash
	Bytes     atomic.Uint64
	Discarded atomic.Uint64 // partial downloads thrown away because the file did not match its record
}

// Fetcher downloads objects from a JetStream object store bucket into dir, resumably.
type Fetcher struct {
	js      jetstream.JetStream
	bucket  string
	dir     string
	window  int
	limiter *rate.Limiter // nil: unlimited
	onBytes func(n int)   // metrics hook; may be nil

	Counters FetchCounters
}

// NewFetcher returns a Fetcher. bytesPerSec <= 0 means no bandwidth limit; window <= 0 means
// DefaultWindow.
func NewFetcher(js jetstream.JetStream, bucket, dir string, window int, bytesPerSec int64, onBytes func(int)) *Fetcher {
	if window <= 0 {
		window = DefaultWindow
	}
	f := &Fetcher{js: js, bucket: bucket, dir: dir, window: window, onBytes: onBytes}
	if bytesPerSec > 0 {
		// The burst must hold one whole chunk, or WaitN would refuse it.
		f.limiter = rate.NewLimiter(rate.Limit(bytesPerSec), max(int(bytesPerSec), 1<<20))
	}
	return f
}

// ArtifactPath is where a verified artifact with this hex digest lives.
func (f *Fetcher) ArtifactPath(digestHex string) string {
	return filepath.Join(f.dir, "artifacts", digestHex)
}

func (f *Fetcher) partPaths(digestHex string) (part, prog string) {
	base := filepath.Join(f.dir, "downloads", digestHex)
	return base + ".part", base + ".progress"
}

// Fetch makes sure the object's bytes are on disk, verified against digestHex and size, and
// returns the artifact path. A previous interrupted Fetch of the same digest is resumed. report,
// if not nil, is called after each chunk with bytes done and total.
func (f *Fetcher) Fetch(ctx context.Context, object, digestHex string, size int64, report func(done, total int64)) (string, error) {
	final := f.ArtifactPath(digestHex)
	if _, err := os.Stat(final); err == nil {
		// Artifacts are not fsynced (see below), so one that survived a power cut is re-checked
		// before it is used again.
		if fileDigest(final) == digestHex {
			return final, nil
		}
		f.Counters.Discarded.Add(1)
		_ = os.Remove(final)
	}
	obs, err := f.js.ObjectStore(ctx, f.bucket)
	if err != nil {
		return "", fmt.Errorf("sync: open object store: %w", err)
	}
	info, err := obs.GetInfo(ctx, object)
	if err != nil {
		return "", fmt.Errorf("sync: object info: %w", err)
	}
	if int64(info.Size) != size {
		return "", fmt.Errorf("%w: object has %d bytes, manifest says %d", ErrSizeMismatch, info.Size, size)
	}
	for _, d := range []string{"artifacts", "downloads"} {
		if err := os.MkdirAll(filepath.Join(f.dir, d), 0o750); err != nil {
			return "", fmt.Errorf("sync: %w", err)
		}
	}
	partPath, progPath := f.partPaths(digestHex)
	p, h := f.loadProgress(progPath, info.NUID)
	if p.Bytes > 0 && !prefixMatches(partPath, p) {
		// Progress records are written without fsync (see saveProgress): after a power cut the
		// file may hold less, or other bytes, than the record vouches for. Start over.
		f.Counters.Discarded.Add(1)
		p, h = progress{NUID: info.NUID}, sha256.New()
	}

	part, err := os.OpenFile(partPath, os.O_CREATE|os.O_WRONLY, 0o640)
	if err != nil {
		return "", fmt.Errorf("sync: open partial file: %w", err)
	}
	defer part.Close()
	// Bytes past the last persisted record may be half-written; drop them and fetch them again.
	if err := part.Truncate(p.Bytes); err != nil {
		return "", fmt.Errorf("sync: truncate partial file: %w", err)
	}
	if _, err := part.Seek(p.Bytes, 0); err != nil {
		return "", fmt.Errorf("sync: seek partial file: %w", err)
	}
	if p.Bytes < size {
		if err := f.stream(ctx, info, part, &p, h, progPath, size, report); err != nil {
			return "", err
		}
	}
	// No fsync: waiting for the disk here cost as much as the download itself in the fan-out
	// benchmark, and nothing depends on these bytes being durable — Ollama re-hashes the blob on
	// upload, the file installer fsyncs what it keeps, and reuse re-checks the digest (above).
	_ = os.Remove(progPath)
	if got := hex.EncodeToString(h.Sum(nil)); got != digestHex {
		_ = os.Remove(partPath)
		return "", fmt.Errorf("%w: got sha256:%s", ErrDigestMismatch, got[:12])
	}
	if err := os.Rename(partPath, final); err != nil {
		return "", fmt.Errorf("sync: move artifact into place: %w", err)
	}
	return final, nil
}

// loadProgress returns the persisted progress for nuid, or a fresh start if there is none or it
// belongs to another upload of the object (a re-put gets a new NUID and new chunks).
func (f *Fetcher) loadProgress(path, nuid string) (progress, hash.Hash) {
	h := sha256.New()
	data, err := os.ReadFile(path)
	if err != nil {
		return progress{NUID: nuid}, h
	}
	var p progress
	if json.Unmarshal(data, &p) != nil || p.NUID != nuid || p.Bytes < 0 {
		return progress{NUID: nuid}, sha256.New()
	}
	if h.(encoding.BinaryUnmarshaler).UnmarshalBinary(p.HashState) != nil {
		return progress{NUID: nuid}, sha256.New()
	}
	return p, h
}

// saveProgress records how far the part file goes. It does not fsync: a killed process loses
// nothing the kernel already has, and after a power cut the resume check (prefixMatches) catches a
// record that got ahead of the data. An fsync per window would make the download wait for the
// disk every window for no gain in correctness; the finished file is fsynced once, before rename.
func (f *Fetcher) saveProgress(path string, p *progress, h hash.Hash) error {
	st, err := h.(encoding.BinaryMarshaler).MarshalBinary()
	if err != nil {
		return fmt.Errorf("sync: hash state: %w", err)
	}
	p.HashState = st
	data, err := json.Marshal(p)
	if err != nil {
		return fmt.Errorf("sync: progress: %w", err)
	}
	return writeFileAtomic(path, data)
}

// stream reads the object's chunk messages from p.NextSeq on, through an ordered consumer so that
// a reconnect or gap is repaired by the client library, with at most one window buffered.
func (f *Fetcher) stream(ctx context.Context, info *jetstream.ObjectInfo, part *os.File, p *progress, h hash.Hash, progPath string, size int64, report func(done, total int64)) error {
	cfg := jetstream.OrderedConsumerConfig{
		FilterSubjects: []string{fmt.Sprintf("$O.%s.C.%s", f.bucket, info.NUID)},
	}
	if p.NextSeq > 0 {
		cfg.DeliverPolicy = jetstream.DeliverByStartSequencePolicy
		cfg.OptStartSeq = p.NextSeq
	}
	cons, err := f.js.OrderedConsumer(ctx, "OBJ_"+f.bucket, cfg)
	if err != nil {
		return fmt.Errorf("sync: chunk consumer: %w", err)
	}
	it, err := cons.Messages(jetstream.PullMaxMessages(f.prefetch(info)))
	if err != nil {
		return fmt.Errorf("sync: chunk stream: %w", err)
	}
	defer it.Stop()
	sinceSave := 0
	for p.Bytes < size {
		// A stream that stops delivering (a partitioned link the client has not noticed) must not
		// hold the agent forever; the next attempt resumes from the last persisted window.
		nctx, cancel := context.WithTimeout(ctx, IdleTimeout)
		msg, err := it.Next(jetstream.NextContext(nctx))
		cancel()
		if err != nil {
			return fmt.Errorf("sync: next chunk: %w", err)
		}
		meta, err := msg.Metadata()
		if err != nil {
			return fmt.Errorf("sync: chunk metadata: %w", err)
		}
		data := msg.Data()
		f.Counters.Chunks.Add(1)
		f.Counters.Bytes.Add(uint64(len(data)))
		if f.onBytes != nil {
			f.onBytes(len(data))
		}
		if p.Bytes+int64(len(data)) > size {
			return fmt.Errorf("%w: object stream longer than %d bytes", ErrSizeMismatch, size)
		}
		if f.limiter != nil {
			if err := f.limiter.WaitN(ctx, len(data)); err != nil {
				return fmt.Errorf("sync: bandwidth limit: %w", err)
			}
		}
		if _, err := part.Write(data); err != nil {
			return fmt.Errorf("sync: write partial file: %w", err)
		}
		h.Write(data)
		p.Bytes += int64(len(data))
		p.Chunks++
		p.NextSeq = meta.Sequence.Stream + 1
		if report != nil {
			report(p.Bytes, size)
		}
		if sinceSave++; sinceSave >= f.window && p.Bytes < size {
			if err := f.saveProgress(progPath, p, h); err != nil {
				return err
			}
			sinceSave = 0
		}
	}
	return nil
}

// prefetch is the number of chunk messages that fit PrefetchBytes, at least one window.
func (f *Fetcher) prefetch(info *jetstream.ObjectInfo) int {
	if info.Chunks == 0 {
		return f.window
	}
	chunk := (info.Size + uint64(info.Chunks) - 1) / uint64(info.Chunks)
	return max(f.window, int(PrefetchBytes/max(chunk, 1)))
}

// fileDigest is the hex SHA-256 of a file, or "" if it cannot be read.
func fileDigest(path string) string {
	file, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer file.Close()
	h := sha256.New()
	if _, err := io.Copy(h, file); err != nil {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))
}

// prefixMatches re-hashes the first p.Bytes of the part file and compares the SHA-256 state with
// the recorded one: equal states mean the bytes on disk are the bytes that were hashed.
func prefixMatches(partPath string, p progress) bool {
	file, err := os.Open(partPath)
	if err != nil {
		return false
	}
	defer file.Close()
	h := sha256.New()
	if n, err := io.CopyN(h, file, p.Bytes); err != nil || n != p.Bytes {
		return false
	}
	st, err := h.(encoding.BinaryMarshaler).MarshalBinary()
	return err == nil && bytes.Equal(st, p.HashState)
}

func writeFileAtomic(path string, data []byte) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o640); err != nil {
		return fmt.Errorf("sync: write %s: %w", filepath.Base(path), err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("sync: rename %s: %w", filepath.Base(path), err)
	}
	return nil
}

// removeIfExists removes path, ignoring "does not exist".
func removeIfExists(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}
