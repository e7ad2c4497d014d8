/**
 * Venues' questions on the event page (D27): unanswered first, each with its answer form (to every
 * venue asked, without naming who asked, or to the asker alone), then those answered, with their answer
 * and a way to answer again. `/app/events/{id}/questions/{questionId}` takes the answer; a refused one is
 * shown there, with what was typed and the problem beside its field.
 */
import { type EventView, personRequester, viewMyEvent } from '../../../app/planning.js';
import { answerVenueQuestion, type QuestionDocument } from '../../../app/questions.js';
import { isSourcing } from '../../../domain/venue-request.js';
import { instant } from '../../format.js';
import { type FormBody, type FormProblem, field, fieldId, problemsByField } from '../../forms.js';
import { href, ROUTES } from '../../href.js';
import {
  CsrfField,
  ErrorAlert,
  ErrorSummary,
  ErrorText,
  type Frame,
  Layout,
  TextArea,
} from '../../layout.js';
import { action, loader, type PageModule, type PageRequest } from '../../page-module.js';
import { shownAgain, submitForm } from '../../submit-form.js';
import { actorName } from './history.js';

const LABELS: Record<string, string> = { text: 'Answer', sharedWith: 'Who sees the answer' };
const labelOf = (name: string) => LABELS[name] ?? 'This field';

function answerProblemWords(problem: { field: string; code: string }): string {
  if (problem.field === 'sharedWith') return 'Choose who sees the answer.';
  if (problem.code === 'too_long') return 'Write at most 1,000 characters.';
  return 'Write the answer: it cannot be empty.';
}

/** One question's answer form: the answer, and who sees it. */
function AnswerForm(props: {
  eventId: string;
  question: QuestionDocument;
  csrf: string;
  values?: FormBody;
  problems?: readonly FormProblem[];
}) {
  const { question, eventId } = props;
  const values = props.values ?? {
    text: question.answer?.text ?? '',
    sharedWith: question.answer?.sharedWith ?? '',
  };
  const errors = problemsByField(props.problems ?? []);
  // On the event page several forms share the page: each control's id names its question. The answer
  // page holds one form, whose controls keep the ids the error summary links to.
  const standalone = props.values !== undefined || props.problems !== undefined;
  const prefix = `q-${question.id}`;
  const shareId = standalone ? fieldId('sharedWith') : `${prefix}-shared`;
  const shareErrors = errors.get('sharedWith');
  const shared = field(values, 'sharedWith');
  return (
    <form method="post" action={href.answerQuestion(eventId, question.id)} novalidate>
      <CsrfField token={props.csrf} />
      <TextArea
        name="text"
        label={question.answer ? 'New answer' : 'Answer'}
        value={field(values, 'text')}
        errors={errors}
        hint="At most 1,000 characters, sent as plain text."
        rows={3}
        {...(standalone ? {} : { id: `${prefix}-text` })}
      />
      <fieldset
        id={shareId}
        class={shareErrors ? 'invalid' : undefined}
        aria-describedby={shareErrors ? `${shareId}-error` : undefined}
      >
        <legend>Who sees the answer</legend>
        <ErrorText id={shareId} messages={shareErrors} />
        <div class="checkbox">
          <input type="radio" id={`${prefix}-all`} name="sharedWith" value="all" checked={shared === 'all'} />
          <label for={`${prefix}-all`}>Every venue asked, without saying who asked</label>
        </div>
        <div class="checkbox">
          <input
            type="radio"
            id={`${prefix}-asker`}
            name="sharedWith"
            value="asker"
            checked={shared === 'asker'}
          />
          <label for={`${prefix}-asker`}>Only {question.venue.name}</label>
        </div>
      </fieldset>
      <div class="form-actions">
        <button type="submit" class="primary">
          {question.answer ? 'Answer again' : 'Send the answer'}
          <span class="visually-hidden"> to the question of {question.venue.name}</span>
        </button>
      </div>
    </form>
  );
}

function QuestionItem(props: {
  view: EventView;
  question: QuestionDocument;
  csrf: string;
  answering: boolean;
}) {
  const { question, view } = props;
  const answer = question.answer;
  return (
    <li class="question">
      <p class="subtle">
        {question.venue.name} asked, {instant(question.askedAt)}
      </p>
      <p class="quote">{question.text}</p>
      {answer && (
        <>
          <p class="subtle">
            Answered by {actorName(answer.answeredBy, view)}, {instant(answer.answeredAt)},{' '}
            {answer.sharedWith === 'all' ? 'for every venue asked' : `for ${question.venue.name} only`}
          </p>
          <p class="answer">{answer.text}</p>
        </>
      )}
      {props.answering &&
        (answer ? (
          <details>
            <summary>Answer again</summary>
            <AnswerForm eventId={view.details.id} question={question} csrf={props.csrf} />
          </details>
        ) : (
          <AnswerForm eventId={view.details.id} question={question} csrf={props.csrf} />
        ))}
    </li>
  );
}

/** The event page's "Questions from venues": nothing at all while no venue has asked. */
export function QuestionsSection(props: { view: EventView; csrf: string }) {
  const { view } = props;
  if (view.questions.length === 0) return null;
  const answering = isSourcing(view.details.status);
  const waiting = view.questions.filter((question) => question.answer === null).length;
  return (
    <section id="questions" aria-labelledby="questions-title">
      <h2 id="questions-title">Questions from venues</h2>
      <p class="hint">
        {waiting === 0
          ? 'Every question is answered.'
          : `${waiting === 1 ? '1 question waits' : `${waiting} questions wait`} for an answer.`}{' '}
        {answering
          ? 'An answer for every venue shows on each venue’s page without saying who asked; each venue that sees it is told by mail.'
          : 'Sourcing is over: questions can no longer be answered.'}
      </p>
      <ul class="plain questions">
        {view.questions.map((question) => (
          <QuestionItem view={view} question={question} csrf={props.csrf} answering={answering} />
        ))}
      </ul>
    </section>
  );
}

type AnswerRequest = PageRequest<typeof ROUTES.answerQuestion>;

async function answerPage(
  page: AnswerRequest,
  shown: { values?: FormBody; problems?: FormProblem[]; refusal?: string },
  status = 200,
) {
  const view = await viewMyEvent(page.deps, page.person, page.params.id);
  const question = view.questions.find((candidate) => candidate.id === page.params.questionId);
  if (!question) return page.notFound();
  return page.render(AnswerPage({ frame: page.frame(), view, question, ...shown }), status);
}

export const questionPages: PageModule = [
  loader(ROUTES.answerQuestion, (page) => answerPage(page, {})),

  action(ROUTES.answerQuestion, async (page) => {
    const { id, questionId } = page.params;
    const body = {
      text: field(page.form, 'text'),
      sharedWith: field(page.form, 'sharedWith') || null,
    };
    return submitForm(page, {
      change: () => answerVenueQuestion(page.deps, personRequester(page.person), id, questionId, body),
      done: () => page.redirect(`${href.event(id)}`, 'question-answered'),
      expects: { problems: true, words: answerProblemWords, refusal: true, gone: true },
      again: (state, status) => answerPage(page, shownAgain(page.form, state), status),
    });
  }),
];

function AnswerPage(props: {
  frame: Frame;
  view: EventView;
  question: QuestionDocument;
  values?: FormBody;
  problems?: FormProblem[];
  refusal?: string;
}) {
  const { view, question } = props;
  const title = `Answer ${question.venue.name}`;
  return (
    <Layout frame={props.frame} title={`${title}: ${view.details.name}`}>
      <p class="breadcrumb">
        <a href={href.event(view.details.id)}>{view.details.name}</a>
      </p>
      <h1>{title}</h1>
      {props.refusal && (
        <ErrorAlert>
          <h2>No answer was sent</h2>
          <p>{props.refusal}</p>
        </ErrorAlert>
      )}
      <ErrorSummary problems={props.problems ?? []} labels={labelOf} />
      <p class="subtle">
        {question.venue.name} asked, {instant(question.askedAt)}
      </p>
      <p class="quote">{question.text}</p>
      {isSourcing(view.details.status) ? (
        <AnswerForm
          eventId={view.details.id}
          question={question}
          csrf={props.frame.csrf}
          values={
            props.values ?? {
              text: question.answer?.text ?? '',
              sharedWith: question.answer?.sharedWith ?? '',
            }
          }
          problems={props.problems ?? []}
        />
      ) : (
        <p>Sourcing is over for this event: questions can no longer be answered.</p>
      )}
    </Layout>
  );
}
