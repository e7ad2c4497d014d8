/** `/app/sign-out`: the header's "Sign out" ends the session here and now (D15). */
import { signOut } from '../../app/people.js';
import { href, ROUTES } from '../href.js';
import { action, type PageModule } from '../page-module.js';
import { clearSessionCookie } from '../session-cookie.js';

export const signOutAction: PageModule = [
  action(
    ROUTES.signOut,
    async (page) => {
      if (page.request.person) await signOut(page.deps, page.request.person);
      clearSessionCookie(page.request, page.reply);
      return page.redirect(href.signIn(), 'signed-out');
    },
    'anyone',
  ),
];
