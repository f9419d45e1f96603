import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';

/**
 * `zod/mini` leaves messages to the application ("Invalid input"); the
 * chainable `zod` sets English ones when it is imported. Importing this
 * module sets the same English messages, so a setting or stored item that
 * fails a `zod/mini` schema reads the same whichever flavour a function
 * loaded first.
 */
z.config(en());
