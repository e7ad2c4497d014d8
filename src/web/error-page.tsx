/** Error pages of the dashboard: they say what happened and where to go, and reveal nothing else. */
import { href } from './href.js';
import { type Frame, Layout } from './layout.js';

const PAGES: Record<number, { title: string; text: string }> = {
  400: { title: 'That request could not be read', text: 'Nothing was changed. Go back and try again.' },
  403: {
    title: 'This form has expired',
    text: 'The page was open too long, or came from elsewhere, so nothing was changed. Go back, reload the page and try again.',
  },
  404: {
    title: 'Page not found',
    text: 'There is nothing here, or nothing you have access to. Check the address, or go back to your events.',
  },
  413: { title: 'That form is too large', text: 'Nothing was changed: a form may hold at most 1 MiB.' },
  415: { title: 'That request could not be read', text: 'Nothing was changed. Send the form from its page.' },
  429: { title: 'Too many requests', text: 'Wait a moment, then try again.' },
  500: { title: 'Something went wrong', text: 'Nothing was changed. Try again in a moment.' },
  503: {
    title: 'Service unavailable',
    text: 'The service cannot answer right now; nothing was changed. Try again shortly.',
  },
};

export function ErrorPage(props: { frame: Frame; status: number }) {
  const page = PAGES[props.status] ?? (props.status < 500 ? PAGES[400]! : PAGES[500]!);
  return (
    <Layout frame={props.frame} title={page.title}>
      <h1>{page.title}</h1>
      <p>{page.text}</p>
      <p>
        <a href={href.events()}>Back to your events</a>
      </p>
    </Layout>
  );
}
