//go:build !linux

package procs

import "errors"

// SlowSysmon does nothing outside Linux.
func SlowSysmon() error { return errors.ErrUnsupported }
