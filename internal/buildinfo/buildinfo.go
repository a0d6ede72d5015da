package buildinfo

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// Set by the linker: -X github.com/sucursal/sucursal/internal/buildinfo.version=… (and commit,
// date). They stay plain uninitialised strings: -X cannot set a variable with an initialiser.
var (
	version string
	commit  string
	date    string
)

// Info describes one build.
type Info struct {
	Version   string // git describe (make build), the module version (go install), or "dev"
	Commit    string // full commit hash; "unknown" when neither -X nor the toolchain recorded it
	Date      string // build time, RFC 3339; the commit time when only the toolchain recorded it
	Modified  bool   // built from a work tree with uncommitted changes (toolchain fallback only)
	GoVersion string // runtime.Version()
	Platform  string // GOOS/GOARCH
}

// Read returns this binary's build information.
func Read() Info {
	bi, _ := debug.ReadBuildInfo()
	return read(version, commit, date, bi)
}

// read is Read with its inputs explicit, for tests.
func read(version, commit, date string, bi *debug.BuildInfo) Info {
	i := Info{Version: version, Commit: commit, Date: date, GoVersion: runtime.Version(),
		Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if bi != nil {
		if i.Version == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			i.Version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				if i.Commit == "" {
					i.Commit = s.Value
				}
			case "vcs.time":
				if i.Date == "" {
					i.Date = s.Value
				}
			case "vcs.modified":
				i.Modified = commit == "" && s.Value == "true"
			}
		}
	}
	if i.Version == "" {
		i.Version = "dev"
	}
	if i.Commit == "" {
		i.Commit = "unknown"
	}
	if i.Date == "" {
		i.Date = "unknown"
	}
	return i
}

// String is the text `<name> --version` and `<name> version` print: the version on the first
// line (what scripts grep), then one line per detail.
func (i Info) String(name string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s\n", name, i.Version)
	c := i.Commit
	if i.Modified {
		c += " (modified)"
	}
	fmt.Fprintf(&b, "commit: %s\n", c)
	fmt.Fprintf(&b, "built:  %s\n", i.Date)
	fmt.Fprintf(&b, "go:     %s %s\n", i.GoVersion, i.Platform)
	return b.String()
}
