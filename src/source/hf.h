/*
 * hf.h - names of files on the Hugging Face Hub (hf://), and the token
 * the Hub is sent. gguf_is_url is declared in http.h.
 */
#ifndef GGUF_HF_H
#define GGUF_HF_H

#include "err.h"

/* HF_ENDPOINT, else https://huggingface.co. */
const char	*gguf_hf_endpoint(void);
/*
 * The http(s) URL name stands for, allocated: hf://OWNER/REPO/FILE@REV
 * as {endpoint}/OWNER/REPO/resolve/{REV or main}/FILE (each part
 * percent-encoded; a revision's slashes too), any other name as it is.
 * NULL with err set for an hf:// name that is not OWNER/REPO/FILE.
 */
char		*gguf_hf_resolve(const char *name, struct gguf_err *err);
/*
 * The Hub's listing of the folder of the repository repo
 * (hf://OWNER/REPO[@REV]), allocated: {endpoint}/api/models/OWNER/REPO/
 * tree/{REV or main}/FOLDER, each part percent-encoded (a revision's
 * slashes too). It answers a JSON list of {"type", "path"}. NULL with err
 * set for a name that is not hf://OWNER/REPO[@REV].
 */
char		*gguf_hf_tree(const char *repo, const char *folder,
		    struct gguf_err *err);
/* True if name is an hf:// name with an @REVISION. */
int		 gguf_hf_at_revision(const char *name);
/*
 * The token, allocated, or NULL if there is none: HF_TOKEN, else the
 * first line of $HF_HOME/token (~/.cache/huggingface/token). *what says
 * where it came from ("HF_TOKEN", "the token file"), for messages that
 * must never hold the token itself.
 */
char		*gguf_hf_token(const char *what[1]);

/*
 * A URL's user:password@ is never printed. gguf_url_hide gives name with
 * the password as "***" (allocated; NULL if name has no password), the
 * name every later message then holds, and remembers the password for
 * that URL (and the URLs that begin as it does: its shards, the files of
 * a folder); gguf_url_unhide gives a URL so hidden with the password put
 * back (allocated; NULL if none was remembered for its scheme, user,
 * host and port), for what is sent to that server only. The user info
 * ends at the authority's last @. gguf_url_wipe overwrites the password
 * of name with asterisks in place (an argument of the command line, so
 * that the process's command line no longer shows it).
 * gguf_url_shown gives any URL as it may be printed (allocated).
 */
char		*gguf_url_hide(const char *name);
void		 gguf_url_wipe(char *name);
char		*gguf_url_unhide(const char *url);
char		*gguf_url_shown(const char *url);

#endif /* GGUF_HF_H */
