package link

import (
	"context"
	"errors"

	"github.com/sucursal/sucursal/internal/wire"
)

// Exit is the last check on what leaves the branch: Open hands it every request before a byte
// of it is written, and sends nothing when it fails. extra are texts that travel in another
// form (a token-mode draft's text, whose ids alone go on the wire).
type Exit interface {
	Check(ctx context.Context, req wire.Request, extra ...string) error
}

// ErrNoExit means the client was built without an Exit: it refuses to send anything.
var ErrNoExit = errors.New("link: no exit check configured; nothing is sent")
