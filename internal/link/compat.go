package link

import "github.com/sucursal/sucursal/internal/wire"

// DraftRefusedError is wire.DraftRefusedError, kept while internal/drafter still names it here.
// TODO(issue #12): remove once the drafter uses wire.DraftRefusedError.
type DraftRefusedError = wire.DraftRefusedError
