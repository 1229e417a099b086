"""Exposure-reduction advisor: which edits (delete, blur, crop, strip EXIF, cut a phrase)
remove the most exposure, proven by re-investigating an edited copy of the account."""
