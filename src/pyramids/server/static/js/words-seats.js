// The words of a seat's own credential (issue 29: an invite is used once) and of the table
// page's "Link this seat to my account", in English and French.

import { addMessages } from "./i18n.js";

addMessages(
  {
    link_seat: "Link this seat to my account",
    link_seat_hint:
      "Your seat then opens on any device where you are logged in, and the game counts for your account.",
    link_seat_done: "This seat is now linked to your account.",
    err_invite_used:
      "This invite was already used; open the table from the browser or account that took the seat.",
    err_seat_has_account: "This seat is already linked to another account.",
  },
  {
    link_seat: "Lier cette place à mon compte",
    link_seat_hint:
      "Votre place s'ouvre alors sur tout appareil où vous êtes connecté, et la partie compte pour votre compte.",
    link_seat_done: "Cette place est maintenant liée à votre compte.",
    err_invite_used:
      "Cette invitation a déjà servi : ouvrez la table depuis le navigateur ou le compte qui a pris la place.",
    err_seat_has_account: "Cette place est déjà liée à un autre compte.",
  },
);
