/**
 * `/app/account`: the person's account page. Which mails eventplan sends them about their events
 * (D24), one switch per kind, every kind on until switched off; where those mails go; a way to their
 * signed-in devices. Every mail of these kinds links here.
 */
import { notificationSwitches, saveNotificationSwitches } from '../../app/notification-settings.js';
import { isNotificationKind, NOTIFICATION_KINDS, type NotificationKind } from '../../domain/notifications.js';
import { type FormProblem, fields, problemsByField } from '../forms.js';
import { href, ROUTES } from '../href.js';
import { CsrfField, ErrorSummary, ErrorText, type Frame, Layout } from '../layout.js';
import { action, loader, type PageModule } from '../page-module.js';
import { submitForm } from '../submit-form.js';
import { notificationHint, notificationLabel } from '../words.js';

/** The form's one control: the kinds ticked. */
const FIELD = 'notifications';

export const account: PageModule = [
  loader(ROUTES.account, async (page) => {
    const switches = await notificationSwitches(page.deps, page.person);
    const on = new Set(switches.filter((one) => one.on).map((one) => one.kind));
    return page.render(
      AccountPage({ frame: page.frame(), person: page.person, on, problems: [], notice: page.notice }),
    );
  }),

  action(ROUTES.account, async (page) => {
    const ticked = fields(page.form, FIELD);
    return submitForm(page, {
      change: () => saveNotificationSwitches(page.deps, page.person, ticked),
      done: () => page.redirect(href.account(), 'notifications-saved'),
      expects: { problems: true },
      again: (state, status) =>
        page.render(
          AccountPage({
            frame: page.frame(),
            person: page.person,
            // What was ticked stays ticked; a kind that does not exist is named by the problem, not drawn.
            on: new Set(ticked.filter(isNotificationKind)),
            problems: state.problems ?? [],
          }),
          status,
        ),
    });
  }),
];

const switchId = (kind: NotificationKind) => `notify-${kind.replaceAll('_', '-')}`;

function AccountPage(props: {
  frame: Frame;
  person: { name: string | null; email: string };
  on: ReadonlySet<NotificationKind>;
  problems: FormProblem[];
  notice?: string | undefined;
}) {
  const { person } = props;
  const errors = problemsByField(props.problems);
  const messages = errors.get(FIELD);
  return (
    <Layout frame={props.frame} title="Your account" notice={props.notice}>
      <div class="narrow">
        <h1>Your account</h1>
        <ErrorSummary problems={props.problems} labels={() => 'Mails'} />
        <p>
          Signed in as <strong>{person.name ?? person.email}</strong>
          {person.name && <> ({person.email})</>}. Mails about your events go to {person.email}.
        </p>
        <form method="post" action={href.account()}>
          <CsrfField token={props.frame.csrf} />
          <fieldset
            id="field-notifications"
            aria-describedby={messages ? 'field-notifications-error' : 'notifications-hint'}
          >
            <legend>Mail me when</legend>
            <p class="hint" id="notifications-hint">
              Untick what you would rather not receive. You are never mailed about a change you made yourself;
              mails to venues are not affected.
            </p>
            <ErrorText id="field-notifications" messages={messages} />
            {NOTIFICATION_KINDS.map((kind) => (
              <div class="switch">
                <label class="checkbox" for={switchId(kind)}>
                  <input
                    type="checkbox"
                    id={switchId(kind)}
                    name={FIELD}
                    value={kind}
                    checked={props.on.has(kind)}
                    aria-describedby={`${switchId(kind)}-hint`}
                  />
                  {notificationLabel(kind)}
                </label>
                <p class="hint" id={`${switchId(kind)}-hint`}>
                  {notificationHint(kind)}
                </p>
              </div>
            ))}
          </fieldset>
          <div class="form-actions">
            <button type="submit">Save mail settings</button>
          </div>
        </form>
        <h2>Devices</h2>
        <p>
          See and sign out the browsers where you are signed in on{' '}
          <a href={href.sessions()}>your signed-in devices</a>.
        </p>
      </div>
    </Layout>
  );
}
