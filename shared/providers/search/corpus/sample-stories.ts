/**
 * Hand-written story material of the sample corpus (see generate-sample.ts).
 * Each family is a topic with story seeds: a headline, a snippet and two or
 * three paragraphs written around a context (company, people, figures)
 * drawn from the pools below. All companies, people and figures are
 * fictional; the writing aims to read like ordinary trade and business news.
 */
import type { Rng } from './generate-sample';

export interface Story {
  topic: string;
  title: string;
  snippet: string;
  paragraphs: string[];
}

export interface Family {
  topic: string;
  /** Stories to make. */
  count: number;
  /** Outlets that run this kind of story. */
  domains: readonly string[];
  /** One story; `index` counts the stories this family has made so far. */
  write(rng: Rng, date: Date, index: number): Story;
}

type Text<C> = (c: C) => string;

interface Seed<C> {
  title: Text<C>;
  snippet: Text<C>;
  paragraphs: Array<Text<C>>;
}

function family<C>(spec: {
  topic: string;
  count: number;
  domains: readonly string[];
  context: (rng: Rng, date: Date) => C;
  seeds: Array<Seed<C>>;
  /** Optional closing paragraphs, one added to about half the stories. */
  closers?: Array<Text<C>>;
}): Family {
  return {
    topic: spec.topic,
    count: spec.count,
    domains: spec.domains,
    write(rng, date) {
      const context = spec.context(rng, date);
      const seed = rng.pick(spec.seeds);
      const paragraphs = seed.paragraphs.map((paragraph) => paragraph(context));
      if (spec.closers && rng.next() < 0.5) paragraphs.push(rng.pick(spec.closers)(context));
      return {
        topic: spec.topic,
        title: tidy(seed.title(context)),
        snippet: tidy(seed.snippet(context)),
        paragraphs: paragraphs.map(tidy),
      };
    },
  };
}

// ---------------------------------------------------------------- pools

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const weekday = (date: Date) => WEEKDAYS[date.getUTCDay()]!;

const CITIES = [
  'San Francisco',
  'Austin',
  'London',
  'Berlin',
  'Paris',
  'Toronto',
  'Tel Aviv',
  'Singapore',
  'Bangalore',
  'Stockholm',
  'New York',
  'Seattle',
  'Amsterdam',
  'Zurich',
  'Boston',
  'Madrid',
];

const PEOPLE = [
  'Dana Whitfield',
  'Marcus Olsen',
  'Priya Raman',
  'Tomás Ferreira',
  'Elena Kovac',
  'James Okafor',
  'Sofia Lindqvist',
  'Kenji Watanabe',
  'Amara Nwosu',
  'Laura Becker',
  'Ravi Menon',
  'Hannah Cole',
  'Mateo Alvarez',
  'Grace Liang',
  'Oliver Brandt',
  'Nadia Haddad',
  'Samuel Price',
  'Yuki Tanaka',
  'Claire Dubois',
  'Aditya Rao',
  'Rachel Stein',
  'Lukas Novak',
  'Ines Carvalho',
  'Ben Adeyemi',
];

const ANALYSTS = [
  'an analyst at Harrow Research',
  'an analyst at Bellweather Securities',
  'a partner at the consultancy Fairmount Group',
  'a semiconductor analyst at Coastline Capital Markets',
  'a principal analyst at Northfield Insights',
  'a research director at Quarry Partners',
];

interface Lab {
  name: string;
  model: string;
  city: string;
}

const LABS: Lab[] = [
  { name: 'Halcyon AI', model: 'Aster', city: 'San Francisco' },
  { name: 'Meridian Labs', model: 'Tide', city: 'London' },
  { name: 'Corvid Intelligence', model: 'Rook', city: 'Seattle' },
  { name: 'Tessellate AI', model: 'Facet', city: 'Paris' },
  { name: 'Parallax Research', model: 'Prism', city: 'Toronto' },
  { name: 'Brightline Models', model: 'Lumen', city: 'New York' },
  { name: 'Lattice Mind', model: 'Weave', city: 'Zurich' },
  { name: 'Kestrel AI', model: 'Kite', city: 'Berlin' },
];

const CLOUDS = ['Nimbus Cloud', 'Stratus Compute', 'Cirrus Platforms', 'Keystone Cloud', 'Harbor Data Services'];

const CHIPMAKERS = ['Vantage Semiconductor', 'Ironwood Silicon', 'Photon Logic', 'Axion Micro', 'Quantis Devices', 'Redline Memory'];

const ENTERPRISES = [
  { name: 'Northstar Insurance', industry: 'insurance' },
  { name: 'Halvorsen Logistics', industry: 'logistics' },
  { name: 'Crestline Bank', industry: 'banking' },
  { name: 'Orchard Retail Group', industry: 'retail' },
  { name: 'Pinebrook Health', industry: 'healthcare' },
  { name: 'Atlas Freight', industry: 'freight' },
  { name: 'Silverline Telecom', industry: 'telecom' },
  { name: 'Greyfield Manufacturing', industry: 'manufacturing' },
  { name: 'Bramble Foods', industry: 'consumer goods' },
  { name: 'Westmark Energy', industry: 'energy' },
];

const INVESTORS = [
  'Northgate Ventures',
  'Red Cedar Capital',
  'Apex Lane Partners',
  'Blue Harbor Ventures',
  'Summit Peak Capital',
  'Foundry Row',
  'Granite Growth',
  'Lowland Ventures',
  'Tamarack Capital',
  'Bellfield Partners',
];

const NAME_STARTS = [
  'Arc',
  'Bolt',
  'Cedar',
  'Delta',
  'Ember',
  'Flux',
  'Glyph',
  'Helio',
  'Iris',
  'Juno',
  'Koda',
  'Lumo',
  'Mira',
  'Nova',
  'Onyx',
  'Pico',
  'Quill',
  'Rune',
  'Sable',
  'Tandem',
  'Umbra',
  'Vela',
  'Wren',
  'Zephyr',
  'Fern',
  'Ledger',
  'Pallet',
  'Copper',
  'Signal',
  'Harbor',
];
const NAME_ENDS = [' AI', ' Labs', 'ly', 'stack', 'works', 'base', ' Loop', 'forge', ' Systems', 'path', 'wise'];

function startupName(rng: Rng): string {
  return `${rng.pick(NAME_STARTS)}${rng.pick(NAME_ENDS)}`;
}

const AI_PRODUCTS = [
  {
    pitch: 'AI agents for accounting teams',
    buyers: 'mid-sized finance departments',
    problem: 'month-end reconciliation still eats days of manual work',
  },
  {
    pitch: 'a code review assistant built on large language models',
    buyers: 'engineering teams at software companies',
    problem: 'reviews have become the bottleneck as AI tools write more code',
  },
  {
    pitch: 'voice AI for customer service centers',
    buyers: 'insurers, utilities and airlines',
    problem: 'call volumes keep rising while hiring agents gets harder',
  },
  {
    pitch: 'observability tools for LLM applications',
    buyers: 'companies running AI features in production',
    problem: 'teams cannot see why a model answer went wrong',
  },
  {
    pitch: 'AI contract analysis for legal teams',
    buyers: 'in-house legal departments',
    problem: 'lawyers spend hours finding the same clauses in long agreements',
  },
  {
    pitch: 'synthetic data for training AI models',
    buyers: 'model developers and banks',
    problem: 'real data is scarce, sensitive or both',
  },
  {
    pitch: 'an inference platform for open-weight models',
    buyers: 'startups that want to avoid closed APIs',
    problem: 'serving open models cheaply at scale is hard',
  },
  {
    pitch: 'AI search over internal company documents',
    buyers: 'knowledge-heavy firms such as consultancies',
    problem: 'employees waste time hunting for files across a dozen tools',
  },
  {
    pitch: 'evaluation tools for generative AI',
    buyers: 'teams shipping chatbots and copilots',
    problem: 'there is no reliable way to know whether a new prompt or model is better',
  },
  {
    pitch: 'AI copilots for field technicians',
    buyers: 'utilities and equipment makers',
    problem: 'experienced technicians are retiring faster than they can be replaced',
  },
  {
    pitch: 'an AI sales assistant that drafts outreach and updates the CRM',
    buyers: 'B2B sales teams',
    problem: 'reps spend more time on admin than on customers',
  },
  {
    pitch: 'AI tools that generate and test ad creative',
    buyers: 'marketing teams and agencies',
    problem: 'campaigns need far more creative variants than teams can produce',
  },
];

const OTHER_PRODUCTS = [
  { pitch: 'payments software for freight brokers', sector: 'fintech', problem: 'carriers still wait weeks to get paid' },
  { pitch: 'a warehouse robotics platform', sector: 'logistics', problem: 'warehouses cannot find enough staff for peak season' },
  {
    pitch: 'carbon accounting software for manufacturers',
    sector: 'climate tech',
    problem: 'new disclosure rules require supply-chain emissions data',
  },
  {
    pitch: 'a developer platform for internal tools',
    sector: 'developer tools',
    problem: 'engineering teams rebuild the same admin screens again and again',
  },
  { pitch: 'virtual physical therapy', sector: 'digital health', problem: 'patients drop out of in-person programs' },
  { pitch: 'spend management for small businesses', sector: 'fintech', problem: 'owners track expenses in spreadsheets' },
  { pitch: 'battery analytics for electric fleets', sector: 'climate tech', problem: 'fleet operators cannot predict battery wear' },
  {
    pitch: 'a customer data platform for retailers',
    sector: 'martech',
    problem: 'shopper data is scattered across stores, apps and websites',
  },
  { pitch: 'payroll software for global teams', sector: 'HR tech', problem: 'companies hiring abroad face a maze of local rules' },
  {
    pitch: 'a security platform for software supply chains',
    sector: 'cybersecurity',
    problem: 'attackers increasingly target open-source dependencies',
  },
];

const ROUNDS = [
  { name: 'seed', min: 3, max: 12 },
  { name: 'Series A', min: 12, max: 40 },
  { name: 'Series B', min: 35, max: 120 },
  { name: 'Series C', min: 90, max: 320 },
];

const money = (millions: number) => (millions >= 1000 ? `$${Number((millions / 1000).toFixed(1))} billion` : `$${millions} million`);

// ---------------------------------------------------------------- families

const TECH_OUTLETS = [
  'techcrunch.com',
  'www.theverge.com',
  'arstechnica.com',
  'www.wired.com',
  'venturebeat.com',
  'www.zdnet.com',
  'siliconangle.com',
  'www.theregister.com',
];
const BUSINESS_OUTLETS = ['www.reuters.com', 'www.bloomberg.com', 'www.cnbc.com', 'www.ft.com', 'www.axios.com', 'www.businessinsider.com'];

const llmReleases = family({
  topic: 'llm',
  count: 42,
  domains: [...TECH_OUTLETS, 'www.reuters.com', 'www.axios.com', 'news.ycombinator.com'],
  context: (rng, date) => {
    const lab = rng.pick(LABS);
    const major = rng.int(2, 6);
    const suffix = rng.pick(['', '', ' Mini', ' Pro', ' Flash', ' Turbo']);
    return {
      lab,
      model: `${lab.model} ${major}${rng.pick(['', '.5', '.1'])}${suffix}`,
      day: weekday(date),
      context: rng.pick(['256,000', '500,000', '1 million', '2 million']),
      pct: rng.int(3, 12) * 5,
      price: `$${rng.pick(['0.15', '0.40', '0.75', '1.10', '2.50', '3.00'])}`,
      weeks: rng.int(2, 6),
      useCase: rng.pick([
        'coding and agentic work',
        'enterprise document analysis',
        'customer support automation',
        'scientific research',
        'multilingual applications',
      ]),
      speed: rng.pick(['two', 'three', 'four']),
      analyst: rng.pick(ANALYSTS),
      person: rng.pick(PEOPLE),
    };
  },
  seeds: [
    {
      title: (c) => `${c.lab.name} releases ${c.model}, a large language model aimed at ${c.useCase}`,
      snippet: (c) =>
        `The ${c.lab.city}-based lab says ${c.model} beats its previous flagship on coding and reasoning tests while answering ${c.speed} times faster.`,
      paragraphs: [
        (c) =>
          `${c.lab.name} on ${c.day} released ${c.model}, the newest member of its family of large language models. The company said the model was trained with more reasoning and tool-use data than earlier versions and accepts up to ${c.context} tokens of context.`,
        (c) =>
          `Developers can use the model through ${c.lab.name}'s API at ${c.price} per million input tokens, about ${c.pct}% less than the previous generation. The lab said the LLM is tuned for ${c.useCase}, and that a smaller variant for on-device use will follow.`,
        (c) =>
          `Early testers said ${c.model} followed long, multi-step instructions more reliably, but cautioned that it still makes up facts on niche questions, a weakness shared by every current model.`,
      ],
    },
    {
      title: (c) => `${c.lab.name} unveils ${c.model} with a ${c.context}-token context window`,
      snippet: (c) =>
        `${c.model} can read entire codebases or hundreds of pages of documents in a single prompt, ${c.lab.name} said, as labs compete on how much an LLM can hold in memory.`,
      paragraphs: [
        (c) =>
          `${c.lab.name} has introduced ${c.model}, a large language model that can take in ${c.context} tokens at once, enough for a large codebase or a stack of annual reports. The lab said recall across the full window held up in its internal tests, although it did not publish the full results.`,
        (c) =>
          `Long context has become a selling point as businesses try to feed whole contract archives and support histories to AI models instead of building complex retrieval pipelines. Pricing for prompts beyond 200,000 tokens is higher, ${c.lab.name} said.`,
      ],
    },
    {
      title: (c) => `${c.lab.name} cuts API prices by ${c.pct}% as it launches ${c.model}`,
      snippet: () =>
        `The price cut is the latest in a run of reductions across the AI industry, as labs compete for developers building LLM applications.`,
      paragraphs: [
        (c) =>
          `${c.lab.name} is cutting prices for developers by ${c.pct}% with the launch of ${c.model}, which now costs ${c.price} per million input tokens. The company said efficiency gains in its inference stack made the reduction possible without hurting margins.`,
        (c) =>
          `"Price is now one of the main reasons customers switch models," said ${c.analyst}. Falling prices have made it cheaper for startups to build AI agents that make dozens of model calls for a single task.`,
        (c) =>
          `${c.model} is available in ${c.lab.name}'s API today and will reach its consumer chatbot within ${c.weeks} weeks, the company said.`,
      ],
    },
    {
      title: (c) => `${c.lab.name} publishes open weights for ${c.model}`,
      snippet: () =>
        `Developers can download and fine-tune the model under a permissive license, a shift for a lab that has mostly kept its large language models behind an API.`,
      paragraphs: [
        (c) =>
          `${c.lab.name} said it would release the weights of ${c.model} under a license that allows commercial use, joining a growing group of AI labs that publish open-weight models alongside their hosted products.`,
        (c) =>
          `The company said the open model trails its largest systems on the hardest reasoning tasks but is competitive for ${c.useCase}. It can run on a single high-end server, which makes it attractive to companies that want to keep data in their own data centers.`,
        (c) =>
          `Researchers welcomed the release but noted that ${c.lab.name} did not disclose the full makeup of its training data, which remains a point of contention in copyright disputes across the industry.`,
      ],
    },
    {
      title: (c) => `${c.model} hands-on: ${c.lab.name}'s new model is faster, not yet smarter`,
      snippet: (c) =>
        `We spent a week with ${c.lab.name}'s latest LLM. It writes code quickly and handles long documents well, but it still stumbles on tricky reasoning puzzles.`,
      paragraphs: [
        (c) =>
          `${c.model} arrived with promises of faster answers and better tool use, and in a week of testing the speed claim held up: responses to routine coding questions came back roughly ${c.speed} times faster than with its predecessor.`,
        () =>
          `Quality gains were harder to pin down. The model produced tidy summaries of long reports and working scripts for common tasks, but made the same kind of arithmetic slips and confident errors on edge cases that we have seen from other large language models.`,
        (c) =>
          `For teams already using ${c.lab.name}'s API, the upgrade is an easy call at ${c.price} per million input tokens. For anyone hoping for a leap in reasoning, it is an incremental step.`,
      ],
    },
    {
      title: (c) => `${c.lab.name} adds computer-use agents to ${c.model}`,
      snippet: (c) =>
        `The feature lets the model operate a browser and desktop apps to complete multi-step tasks, though ${c.lab.name} says a human should approve sensitive actions.`,
      paragraphs: [
        (c) =>
          `${c.lab.name} said ${c.model} can now act as an agent that clicks, types and navigates software on a user's behalf, filling in forms or gathering data from several websites. The feature is in preview for business customers.`,
        () =>
          `The company said it added safeguards that pause the agent before purchases, emails and account changes. Security researchers have warned that such agents can be tricked by instructions hidden in web pages, a technique known as prompt injection.`,
      ],
    },
  ],
  closers: [
    (c) =>
      `The launch comes as businesses move from pilots to production deployments of generative AI, a shift that has made cost per query and latency as important as benchmark scores. ${c.lab.name} did not say how much compute was used to train the model.`,
    (c) => `"The gap between the top labs is narrowing, so reliability and tooling are where the competition is now," said ${c.analyst}.`,
    (c) =>
      `${c.lab.name}, founded in ${c.lab.city}, has raised several large funding rounds from investors betting that a handful of labs will supply most of the world's AI models.`,
  ],
});

const llmEnterprise = family({
  topic: 'enterprise',
  count: 30,
  domains: [
    'venturebeat.com',
    'www.zdnet.com',
    'www.reuters.com',
    'www.ft.com',
    'www.cnbc.com',
    'www.businessinsider.com',
    'siliconangle.com',
    'www.axios.com',
  ],
  context: (rng) => ({
    company: rng.pick(ENTERPRISES),
    lab: rng.pick(LABS),
    task: rng.pick([
      'customer support',
      'claims processing',
      'contract review',
      'software testing',
      'invoice matching',
      'sales proposals',
      'IT help desk tickets',
    ]),
    employees: rng.pick(['2,000', '5,500', '12,000', '30,000', '48,000']),
    pct: rng.int(15, 45),
    months: rng.int(4, 12),
    agents: rng.int(8, 60),
    person: rng.pick(PEOPLE),
    analyst: rng.pick(ANALYSTS),
  }),
  seeds: [
    {
      title: (c) => `${c.company.name} rolls out AI agents to ${c.employees} employees for ${c.task}`,
      snippet: (c) =>
        `The ${c.company.industry} company is using ${c.lab.name}'s large language models to draft responses and summarize documents, with staff reviewing every output.`,
      paragraphs: [
        (c) =>
          `${c.company.name} said it has deployed assistants built on ${c.lab.name}'s large language models across its ${c.task} teams, after a pilot that ran for ${c.months} months. The tools draft first responses, pull up the relevant policy documents and summarize long case histories.`,
        (c) =>
          `Average handling time fell by ${c.pct}% during the pilot, according to the company, and error rates were flat. Employees must approve every customer-facing message before it is sent.`,
      ],
    },
    {
      title: (c) => `${c.company.name} says generative AI cut ${c.task} time by ${c.pct}%`,
      snippet: (c) =>
        `Executives said the project moved from pilot to production in ${c.months} months and that the savings will be reinvested in customer-facing roles.`,
      paragraphs: [
        (c) =>
          `The ${c.company.industry} group began testing generative AI for ${c.task} last year. It now runs ${c.agents} AI agents that handle routine requests end to end and hand anything unusual to a person.`,
        (c) =>
          `Chief information officer ${c.person} said the hardest part was not the model but the data: years of documents had to be cleaned, labeled and connected before the LLM could give reliable answers.`,
        (c) => `"We measured everything against a control group, because the board wanted numbers, not demos," ${c.person} said.`,
      ],
    },
    {
      title: (c) => `Inside ${c.company.name}'s bet on large language models for ${c.task}`,
      snippet: () => `The company built its own evaluation suite before letting an LLM near customers. Here is what it learned.`,
      paragraphs: [
        (c) =>
          `When ${c.company.name} first tried a chatbot for ${c.task}, it answered confidently and was wrong about one time in ten. The team spent the next ${c.months} months building a test set of real cases and grading every model change against it.`,
        (c) =>
          `The current system, built on ${c.lab.name}'s models, retrieves the relevant records before answering and cites them, so staff can check its work. ${c.person}, who leads the project, said the citations did more for employee trust than any accuracy figure.`,
        () => `The company now plans to extend the approach to two more departments next year.`,
      ],
    },
    {
      title: (c) => `${c.company.name} signs multiyear deal with ${c.lab.name} for LLM-powered assistants`,
      snippet: (c) =>
        `The agreement covers ${c.task} and internal search, and includes options to run models in the company's own cloud account.`,
      paragraphs: [
        (c) =>
          `${c.company.name} has signed a multiyear agreement with ${c.lab.name} to deploy AI assistants across the business, starting with ${c.task}. Financial terms were not disclosed.`,
        (c) =>
          `The deal is one of several large enterprise contracts signed by AI labs this year as companies look for measurable returns on their AI budgets. "Buyers are asking for outcomes in the contract now, not just seats," said ${c.analyst}.`,
      ],
    },
    {
      title: (c) => `${c.company.name} pauses AI chatbot after it gave customers wrong answers`,
      snippet: () =>
        `The company said a configuration change let the assistant answer questions outside its approved topics. It expects to restore the service after further testing.`,
      paragraphs: [
        (c) =>
          `${c.company.name} has temporarily switched off an AI assistant used for ${c.task} after customers shared examples of incorrect answers on social media. The company said a recent update had widened the range of questions the bot would answer.`,
        (c) =>
          `The incident highlights the risks of putting large language models in front of customers without tight guardrails. ${c.person}, a spokesperson, said no customer accounts were affected and that affected customers were being contacted.`,
      ],
    },
  ],
  closers: [
    (c) =>
      `Surveys show most large companies are still struggling to move generative AI beyond pilots, citing data quality, costs and unclear returns. ${c.company.name} is one of the few to publish results.`,
    () =>
      `Unions representing some staff said they would monitor the rollout, while the company said no roles would be cut as a direct result of the project.`,
  ],
});

const RESEARCH_FINDINGS = [
  {
    headline: 'LLMs struggle with multi-step planning despite strong benchmark scores',
    short: 'large language models that score well on standard tests often fail at planning tasks that need more than a few steps',
    detail:
      'The researchers built a set of scheduling and logistics puzzles that cannot be solved by pattern matching. Accuracy dropped sharply as the number of required steps grew, even for the strongest models tested.',
    implication: "The authors argue that agent products should check a model's plan with conventional software before acting on it.",
  },
  {
    headline: 'small fine-tuned models can match large LLMs on narrow tasks',
    short:
      'small language models fine-tuned on a few thousand examples matched much larger models on narrow classification and extraction tasks',
    detail:
      'On invoice extraction and support-ticket routing, models with a few billion parameters came within two points of frontier systems after fine-tuning, at a fraction of the inference cost.',
    implication:
      'The results add to the case for companies running smaller, specialized models instead of calling the largest LLM for everything.',
  },
  {
    headline: 'AI coding assistants can introduce subtle security bugs',
    short: 'code written with AI assistants contained more injection and access-control flaws than code written without them',
    detail:
      'Participants who used an AI assistant finished tasks faster but were more likely to ship vulnerable code, and more likely to believe their code was secure.',
    implication:
      'The authors recommend pairing coding assistants with automated security scanning and training developers to review generated code carefully.',
  },
  {
    headline: 'benchmark contamination inflates LLM scores',
    short: 'test questions from popular benchmarks had leaked into the training data of several widely used models',
    detail:
      'When the team rewrote benchmark questions with the same difficulty but new wording, scores fell by as much as 12 points for some models.',
    implication: 'The study adds to calls for private, regularly refreshed evaluation sets that model developers cannot train on.',
  },
  {
    headline: 'retrieval-augmented generation cuts hallucinations in legal questions',
    short: 'grounding a large language model in retrieved case law reduced fabricated citations but did not eliminate them',
    detail:
      'Models answering with retrieved documents invented far fewer cases than models answering from memory, yet still misstated holdings in roughly one answer in twenty.',
    implication: 'Lawyers using such tools should still verify every citation, the authors conclude.',
  },
  {
    headline: "chain-of-thought explanations often don't reflect how models reach answers",
    short: 'the step-by-step reasoning that models show users frequently leaves out the factors that actually drove their answers',
    detail:
      'By planting hints in prompts, the researchers showed that models often used the hint to answer while their written reasoning never mentioned it.',
    implication: 'The finding complicates efforts to use visible reasoning as a safety and auditing tool.',
  },
  {
    headline: 'AI agents fail most real-world office tasks without human help',
    short:
      'AI agents completed only a minority of realistic office tasks, such as filing expenses or updating spreadsheets, without intervention',
    detail:
      'Agents frequently got stuck on pop-up dialogs, misread tables and gave up on multi-application workflows. The best system finished about a third of the tasks.',
    implication: 'The authors expect rapid improvement but say current agents need close supervision in business settings.',
  },
  {
    headline: 'energy use of AI inference is rising faster than training',
    short: 'serving AI models to users now accounts for most of the energy used by large language models over their lifetime',
    detail:
      "The analysis estimated that inference demand, driven by chatbots and agents making many calls per task, outgrew training energy within months of a model's release.",
    implication: 'The authors call for standard reporting of energy per query so buyers can compare models.',
  },
  {
    headline: 'multilingual LLMs still lag in low-resource languages',
    short:
      'large language models perform far worse in languages with little online text, even when they handle English at near-expert level',
    detail:
      'Across 40 languages, accuracy on the same reasoning questions varied by more than 30 points, with the biggest gaps in African and South Asian languages.',
    implication: 'The researchers released their test set and urged labs to invest in data partnerships with local institutions.',
  },
  {
    headline: 'synthetic training data can degrade models over generations',
    short: 'models trained repeatedly on text generated by other models lose diversity and accuracy over successive generations',
    detail:
      'The effect appeared after a few rounds of training on purely synthetic data, but was largely avoided when a share of fresh human-written data was kept in the mix.',
    implication: 'The results matter as a growing share of text on the web is produced by AI tools.',
  },
];

const INSTITUTIONS = [
  'Researchers at a European university consortium',
  'Researchers at Meridian Labs',
  'Researchers at the Open Evaluation Project',
  'Computer scientists at two US universities',
  'Academic and industry researchers',
  'Researchers at the Lattice Mind safety team',
  'Researchers at the Institute for Applied Computing',
];

const llmResearch = family({
  topic: 'research',
  count: 20,
  domains: ['arstechnica.com', 'www.wired.com', 'venturebeat.com', 'news.ycombinator.com', 'www.theregister.com', 'www.zdnet.com'],
  context: (rng) => ({
    finding: rng.pick(RESEARCH_FINDINGS),
    who: rng.pick(INSTITUTIONS),
    person: rng.pick(PEOPLE),
    models: rng.int(6, 24),
  }),
  seeds: [
    {
      title: (c) => `Study: ${c.finding.headline}`,
      snippet: (c) => `${c.who} found that ${c.finding.short}.`,
      paragraphs: [
        (c) =>
          `${c.who} have found that ${c.finding.short}, according to a paper posted this week. The study tested ${c.models} models from several AI labs.`,
        (c) => c.finding.detail,
        (c) =>
          `${c.finding.implication} "This matches what many practitioners have seen, but now there is data," said ${c.person}, one of the authors.`,
      ],
    },
    {
      title: (c) => `${capitalize(c.finding.headline)}, ${lowerFirst(c.who)} report`,
      snippet: (c) => `A new paper testing ${c.models} large language models adds evidence that ${c.finding.short}.`,
      paragraphs: [
        (c) =>
          `A paper from ${lowerFirst(c.who)} adds to a growing body of work on the limits of large language models. Testing ${c.models} models, the authors report that ${c.finding.short}.`,
        (c) => `${c.finding.detail} ${c.finding.implication}`,
      ],
    },
  ],
  closers: [
    () => 'The paper has not yet been peer reviewed. The authors published their code and data so that others can reproduce the results.',
    (c) => `${c.person} said the team plans to repeat the tests as new models are released, since results can change quickly.`,
  ],
});

const aiFunding = family({
  topic: 'funding',
  count: 32,
  domains: ['techcrunch.com', 'venturebeat.com', 'www.axios.com', 'siliconangle.com', 'www.businessinsider.com', 'www.bloomberg.com'],
  context: (rng) => {
    const round = rng.pick(ROUNDS);
    return {
      startup: startupName(rng),
      product: rng.pick(AI_PRODUCTS),
      round: round.name,
      amount: rng.int(round.min, round.max),
      investor: rng.pick(INVESTORS),
      coInvestor: rng.pick(INVESTORS),
      city: rng.pick(CITIES),
      founder: rng.pick(PEOPLE),
      founded: rng.int(2019, 2024),
      staff: rng.int(12, 180),
      customers: rng.int(15, 400),
      valuation: rng.int(4, 40) * 50,
    };
  },
  seeds: [
    {
      title: (c) => `${c.startup} raises ${money(c.amount)} ${c.round} to build ${c.product.pitch}`,
      snippet: (c) => `The ${c.city}-based startup says ${c.product.problem}. The round was led by ${c.investor}.`,
      paragraphs: [
        (c) =>
          `${c.startup}, which builds ${c.product.pitch}, has raised ${money(c.amount)} in a ${c.round} round led by ${c.investor}, with participation from ${c.coInvestor}. The company was founded in ${c.founded} and has ${c.staff} employees.`,
        (c) =>
          `Chief executive ${c.founder} said the idea came from a simple observation: ${c.product.problem}. The company sells to ${c.product.buyers} and says it now has ${c.customers} paying customers.`,
        () => 'The startup plans to use the money to hire engineers and expand its sales team in Europe and North America.',
      ],
    },
    {
      title: (c) => `AI startup ${c.startup} lands ${money(c.amount)} from ${c.investor}`,
      snippet: (c) =>
        `The funding values the company at about ${money(c.valuation)}, according to people familiar with the deal, as investors keep backing applied AI companies.`,
      paragraphs: [
        (c) =>
          `${c.startup} has closed a ${money(c.amount)} ${c.round} round led by ${c.investor}, valuing the company at about ${money(c.valuation)}, according to people familiar with the matter. The company declined to comment on its valuation.`,
        (c) =>
          `The startup offers ${c.product.pitch} to ${c.product.buyers}. Its software sits on top of large language models from several providers, which ${c.founder}, the chief executive, said lets customers switch models as prices fall.`,
      ],
    },
    {
      title: (c) => `${c.startup} secures ${c.round} funding as demand grows for ${c.product.pitch}`,
      snippet: (c) => `${c.startup} raised ${money(c.amount)} after revenue tripled in a year, its founder said.`,
      paragraphs: [
        (c) =>
          `${c.startup} said it raised ${money(c.amount)} from ${c.investor} and existing backers, after annual recurring revenue roughly tripled over the past twelve months.`,
        (c) =>
          `"Every customer conversation starts with the same pain: ${c.product.problem}," said ${c.founder}, who founded the company in ${c.city} in ${c.founded}.`,
        (c) => `${c.investor} said it was drawn by the company's retention numbers and by how quickly customers expanded their contracts.`,
      ],
    },
  ],
  closers: [
    () =>
      'Funding for AI startups has stayed strong even as overall venture investment recovered only slowly, with investors concentrating money in companies that can show real revenue.',
    (c) =>
      `Competition in the space is crowded, with both startups and large software vendors adding similar features. ${c.founder} said ${c.startup}'s advantage is its focus on ${c.product.buyers}.`,
  ],
});

const startupFunding = family({
  topic: 'startups',
  count: 26,
  domains: ['techcrunch.com', 'www.axios.com', 'www.businessinsider.com', 'siliconangle.com', 'www.ft.com', 'www.bloomberg.com'],
  context: (rng) => {
    const round = rng.pick(ROUNDS);
    return {
      startup: startupName(rng),
      product: rng.pick(OTHER_PRODUCTS),
      round: round.name,
      amount: rng.int(round.min, round.max),
      investor: rng.pick(INVESTORS),
      city: rng.pick(CITIES),
      founder: rng.pick(PEOPLE),
      staff: rng.int(10, 250),
      pct: rng.int(10, 35),
    };
  },
  seeds: [
    {
      title: (c) => `${capitalize(c.product.sector)} startup ${c.startup} raises ${money(c.amount)}`,
      snippet: (c) => `${c.startup} builds ${c.product.pitch}. Its ${c.round} round was led by ${c.investor}.`,
      paragraphs: [
        (c) =>
          `${c.startup}, a ${c.city} company that builds ${c.product.pitch}, has raised ${money(c.amount)} in a ${c.round} round led by ${c.investor}.`,
        (c) =>
          `Founder ${c.founder} said the market is opening up because ${c.product.problem}. The company has ${c.staff} employees and plans to double its engineering team.`,
      ],
    },
    {
      title: (c) => `${c.startup} cuts ${c.pct}% of staff as it seeks profitability`,
      snippet: (c) =>
        `The ${c.product.sector} company, which raised a ${c.round} round, said slower sales cycles forced it to reduce costs.`,
      paragraphs: [
        (c) =>
          `${c.startup}, which makes ${c.product.pitch}, is laying off about ${c.pct}% of its ${c.staff} employees, chief executive ${c.founder} told staff in a memo. The company said longer sales cycles and cautious customers had slowed growth.`,
        () =>
          'Departing employees will receive severance and extended health coverage, the memo said. The company expects to reach break-even within 18 months on its current cash.',
      ],
    },
    {
      title: (c) => `${c.startup} agrees to sale to a larger ${c.product.sector} rival`,
      snippet: (c) =>
        `Terms were not disclosed. ${c.startup}'s ${c.staff} employees will join the buyer, and its product will keep running for existing customers.`,
      paragraphs: [
        (c) =>
          `${c.startup}, which raised a ${c.round} round from ${c.investor}, has agreed to be acquired by a larger competitor, the companies said. Financial terms were not disclosed.`,
        (c) =>
          `The deal reflects a wave of consolidation in ${c.product.sector}, where many startups funded in the boom years are finding it hard to raise again. Founder ${c.founder} said the combination would help the product reach more customers.`,
      ],
    },
  ],
  closers: [
    () =>
      'Early-stage investors say they are writing fewer but larger checks, and expect to see more mergers among startups that raised at high valuations.',
  ],
});

const cloud = family({
  topic: 'cloud',
  count: 32,
  domains: [
    'www.datacenterdynamics.com',
    'www.theregister.com',
    'www.zdnet.com',
    'siliconangle.com',
    'www.reuters.com',
    'www.cnbc.com',
    'arstechnica.com',
    'news.ycombinator.com',
  ],
  context: (rng) => {
    const provider = rng.pick(CLOUDS);
    return {
      cloud: provider,
      rival: rng.pick(CLOUDS.filter((name) => name !== provider)),
      region: rng.pick([
        'Madrid',
        'Johannesburg',
        'Jakarta',
        'Querétaro',
        'Osaka',
        'Warsaw',
        'Riyadh',
        'Melbourne',
        'Santiago',
        'Helsinki',
        'Hyderabad',
        'Ohio',
      ]),
      hours: rng.int(2, 9),
      pct: rng.int(8, 30),
      megawatts: rng.int(4, 30) * 25,
      billions: rng.int(2, 18),
      person: rng.pick(PEOPLE),
      analyst: rng.pick(ANALYSTS),
      service: rng.pick([
        'object storage',
        'its managed Kubernetes service',
        'identity and access management',
        'its load balancers',
        'its DNS service',
      ]),
    };
  },
  seeds: [
    {
      title: (c) => `${c.cloud} opens a cloud region in ${c.region} to meet AI demand`,
      snippet: () => `The new region includes GPU capacity for AI workloads and lets local customers keep data in the country.`,
      paragraphs: [
        (c) =>
          `${c.cloud} has opened a new cloud region in ${c.region}, with three availability zones and dedicated capacity for AI training and inference. The company said customers in regulated industries had asked to keep data within national borders.`,
        (c) =>
          `The region is part of a ${money(c.billions * 1000)} investment plan announced earlier, ${c.person}, who runs the company's infrastructure business, said in an interview.`,
      ],
    },
    {
      title: (c) => `${c.cloud} outage disrupts ${c.service} for ${c.hours} hours`,
      snippet: () => `A faulty configuration change caused cascading failures, the company said in a preliminary incident report.`,
      paragraphs: [
        (c) =>
          `Customers of ${c.cloud} saw errors and timeouts for about ${c.hours} hours after a problem with ${c.service}. Websites, payment systems and internal tools at several companies were affected.`,
        () =>
          'In a preliminary report, the company blamed a configuration change that was rolled out too widely before automated checks caught it. It said it would slow down rollouts and add more isolation between regions.',
        (c) =>
          `The outage renewed debate about how dependent businesses have become on a few cloud providers. "Multi-region designs cost more, and many teams quietly skip them," said ${c.analyst}.`,
      ],
    },
    {
      title: (c) => `${c.cloud} raises prices for ${c.service} by ${c.pct}%`,
      snippet: (c) =>
        `The increase takes effect next quarter. Customers say they are reviewing their options, including moving workloads to ${c.rival}.`,
      paragraphs: [
        (c) =>
          `${c.cloud} told customers it will raise prices for ${c.service} by ${c.pct}% starting next quarter, citing higher energy and hardware costs.`,
        (c) =>
          `Some customers said the move would prompt them to revisit their cloud spending, which has become a board-level topic at many firms. "Egress fees and price changes are the two things that make people look at ${c.rival} again," said ${c.analyst}.`,
      ],
    },
    {
      title: (c) => `${c.cloud} signs ${c.megawatts}-megawatt power deal for AI data centers`,
      snippet: () => `Access to electricity has become the main constraint on building AI capacity, executives say.`,
      paragraphs: [
        (c) =>
          `${c.cloud} has agreed to buy ${c.megawatts} megawatts of power under a long-term contract to supply data centers that will host AI workloads. The company said the deal includes new solar and battery capacity.`,
        (c) =>
          `Cloud providers are racing to secure electricity as demand for AI computing grows. ${c.person}, an executive at the company, said grid connections now take years in some markets, longer than building the data centers themselves.`,
      ],
    },
    {
      title: (c) => `${c.cloud} launches sovereign cloud for European public sector`,
      snippet: () => `The service is operated by a locally controlled entity and keeps data and support staff inside the EU.`,
      paragraphs: [
        (c) =>
          `${c.cloud} has launched a sovereign cloud offering for governments and regulated companies in Europe, run by a separate entity with EU-based staff. Customer data and encryption keys stay in the region, the company said.`,
        () =>
          'European policymakers have pushed for more control over critical digital infrastructure, and several governments have said they will prefer providers that can guarantee local operation.',
      ],
    },
    {
      title: (c) => `${c.cloud} cuts GPU rental prices as AI capacity crunch eases`,
      snippet: (c) => `On-demand prices for high-end accelerators fell ${c.pct}% as new data centers came online.`,
      paragraphs: [
        (c) =>
          `${c.cloud} lowered on-demand prices for its top GPU instances by ${c.pct}%, the latest sign that the shortage of AI computing capacity is easing as new supply arrives.`,
        (c) =>
          `Startups that rent accelerators to train and serve models have benefited from the drop. "A year ago you could not get capacity at any price; now there is real competition," said ${c.analyst}.`,
      ],
    },
  ],
  closers: [
    (c) =>
      `${c.cloud} competes with ${c.rival} and several smaller providers for enterprise workloads, a market that has grown steadily as companies move more applications to the cloud.`,
    () => 'Spending on cloud infrastructure continues to grow by double digits a year, driven increasingly by AI workloads.',
  ],
});

function makerAndRival(rng: Rng): { maker: string; rival: string } {
  const maker = rng.pick(CHIPMAKERS);
  return { maker, rival: rng.pick(CHIPMAKERS.filter((name) => name !== maker)) };
}

const chips = family({
  topic: 'chips',
  count: 32,
  domains: [
    'www.tomshardware.com',
    'www.reuters.com',
    'www.bloomberg.com',
    'arstechnica.com',
    'www.theverge.com',
    'www.ft.com',
    'www.cnbc.com',
    'news.ycombinator.com',
  ],
  context: (rng, date) => ({
    day: weekday(date),
    ...makerAndRival(rng),
    chip: `${rng.pick(['Orion', 'Tempest', 'Atlas', 'Vega', 'Cobalt', 'Nimbus', 'Helix', 'Ridge'])} ${rng.int(2, 9)}${rng.pick(['00', '50', 'X', ''])}`,
    billions: rng.int(3, 40),
    pct: rng.int(15, 60),
    node: rng.pick(['3-nanometer', '2-nanometer', '5-nanometer']),
    site: rng.pick(['Arizona', 'Ohio', 'Texas', 'Dresden', 'Hsinchu', 'Kumamoto', 'Malaysia', 'Ireland']),
    memory: rng.pick(['HBM', 'high-bandwidth memory', 'DRAM']),
    person: rng.pick(PEOPLE),
    analyst: rng.pick(ANALYSTS),
  }),
  seeds: [
    {
      title: (c) => `${c.maker} unveils ${c.chip} AI accelerator to challenge market leaders`,
      snippet: (c) =>
        `The chip, made on a ${c.node} process, promises ${c.pct}% better performance per watt for running large language models.`,
      paragraphs: [
        (c) =>
          `${c.maker} introduced the ${c.chip}, an accelerator designed for training and running AI models, at an event on ${c.day}. Built on a ${c.node} process, the chip pairs its compute dies with stacks of ${c.memory}.`,
        (c) =>
          `The company claimed ${c.pct}% better performance per watt than the previous generation on inference for large language models, a metric that matters more as data centers run into power limits. Independent benchmarks are not yet available.`,
        (c) =>
          `"The software ecosystem is still the hardest part to win," said ${c.analyst}. ${c.maker} said it has expanded its compiler and model libraries so popular AI frameworks run without code changes.`,
      ],
    },
    {
      title: (c) => `${c.maker} to invest ${money(c.billions * 1000)} in new fab in ${c.site}`,
      snippet: (c) =>
        `The plant will produce advanced chips from ${c.site} starting in about three years, with public incentives covering part of the cost.`,
      paragraphs: [
        (c) =>
          `${c.maker} said it would spend ${money(c.billions * 1000)} on a new chip plant in ${c.site}, adding capacity for ${c.node} chips used in AI servers and smartphones.`,
        () =>
          'Governments have offered grants and tax credits to attract chip manufacturing, hoping to reduce reliance on a small number of production sites in Asia. The company did not say how much public money it would receive.',
        (c) =>
          `Construction is expected to start next year, and ${c.person}, the company's head of manufacturing, said hiring skilled technicians is now a bigger challenge than equipment.`,
      ],
    },
    {
      title: (c) => `Shortage of ${c.memory} chips constrains AI server shipments`,
      snippet: (c) => `${c.maker} says supply will remain tight through next year as demand from AI data centers outstrips production.`,
      paragraphs: [
        (c) =>
          `Server makers are struggling to get enough ${c.memory} to build AI systems, with lead times stretching to several months, according to ${c.maker} and industry analysts.`,
        (c) =>
          `${c.maker} said it is sold out of its high-end memory for the coming year and is adding production lines, but new capacity takes time. Prices for the chips have risen about ${c.pct}% over the past year, ${c.analyst} estimated.`,
      ],
    },
    {
      title: (c) => `New export rules on AI chips weigh on ${c.maker}`,
      snippet: () =>
        `The company expects the restrictions to cut sales in affected markets and is designing compliant versions of its accelerators.`,
      paragraphs: [
        (c) =>
          `${c.maker} warned that new export restrictions on advanced AI chips would reduce revenue from several markets, sending its shares lower in early trading.`,
        (c) =>
          `The company said it is developing versions of the ${c.chip} that fall below the performance thresholds in the rules. Critics say such workarounds undermine the purpose of export controls, while chipmakers argue that customers will simply buy from foreign competitors instead.`,
      ],
    },
    {
      title: (c) => `${c.maker} wins major AI chip order from a cloud provider`,
      snippet: (c) =>
        `The multiyear agreement covers ${c.chip} accelerators for inference, a sign that buyers want alternatives to a single supplier.`,
      paragraphs: [
        (c) =>
          `${c.maker} has signed a multiyear agreement to supply ${c.chip} accelerators to one of the large cloud providers, the company said, without naming the customer or the value of the deal.`,
        (c) =>
          `Cloud companies have been looking for second sources of AI chips to control costs and reduce dependence on a single vendor. "Inference is where alternatives have a real opening, because the software requirements are narrower," said ${c.analyst}.`,
      ],
    },
    {
      title: (c) => `${c.maker} shares jump after forecast beats expectations on AI demand`,
      snippet: (c) =>
        `The chipmaker raised its outlook for data center revenue, saying orders for AI accelerators and ${c.memory} remain strong.`,
      paragraphs: [
        (c) =>
          `Shares of ${c.maker} rose sharply in after-hours trading after the company forecast quarterly revenue well above analysts' estimates, driven by demand for chips used in AI data centers.`,
        (c) =>
          `Data center revenue grew ${c.pct}% from a year earlier. Chief executive ${c.person} said customers are placing orders further ahead than usual to secure supply.`,
      ],
    },
  ],
  closers: [
    (c) =>
      `${c.maker} competes with ${c.rival} and the in-house chips that large cloud companies are designing for their own data centers.`,
    () =>
      'Spending on AI infrastructure has lifted chip stocks for much of the past two years, though investors have grown sensitive to any sign that orders are slowing.',
  ],
});

const markets = family({
  topic: 'markets',
  count: 32,
  domains: BUSINESS_OUTLETS,
  context: (rng, date) => {
    const kind = rng.pick(['software', 'chip', 'cloud', 'payments', 'e-commerce', 'cybersecurity']);
    const company =
      kind === 'chip'
        ? rng.pick(CHIPMAKERS)
        : kind === 'cloud'
          ? rng.pick(CLOUDS)
          : `${rng.pick(['Cobalt', 'Meridian', 'Trellis', 'Beacon', 'Vertex', 'Cascade', 'Alder', 'Summit', 'Pioneer', 'Sterling'])} ${rng.pick(['Software', 'Systems', 'Group', 'Technologies', 'Networks', 'Commerce'])}`;
    return {
      day: weekday(date),
      kind,
      company,
      pct: rng.int(4, 22),
      revenue: (rng.int(8, 120) / 10).toFixed(1),
      growth: rng.int(5, 40),
      quarter: rng.pick(['first', 'second', 'third', 'fourth']),
      person: rng.pick(PEOPLE),
      analyst: rng.pick(ANALYSTS),
      raise: rng.int(3, 20) * 100,
      startup: startupName(rng),
      billions: rng.int(2, 25),
    };
  },
  seeds: [
    {
      title: (c) => `${c.company} shares surge ${c.pct}% as AI products lift revenue`,
      snippet: (c) =>
        `${c.kind === 'chip' ? 'The chipmaker' : 'The company'} reported ${c.quarter}-quarter revenue of $${c.revenue} billion, up ${c.growth}% from a year earlier, and raised its full-year outlook.`,
      paragraphs: [
        (c) =>
          `Shares of ${c.company} rose ${c.pct}% after the ${c.kind} company reported ${c.quarter}-quarter revenue of $${c.revenue} billion, up ${c.growth}% from a year earlier and ahead of analysts' estimates.`,
        (c) =>
          `Chief executive ${c.person} said AI features added over the past year were driving larger contracts, and that customers who adopted them renewed at higher rates.`,
        (c) => `"Investors wanted proof that AI is showing up in revenue, and this quarter delivered it," said ${c.analyst}.`,
      ],
    },
    {
      title: (c) => `${c.company} stock falls ${c.pct}% after weak guidance`,
      snippet: (c) =>
        `The ${c.kind} company cited longer sales cycles and cautious customer budgets, overshadowing revenue growth of ${c.growth}%.`,
      paragraphs: [
        (c) =>
          `${c.company} shares fell ${c.pct}% on ${c.day} after the company gave a forecast for the current quarter below Wall Street expectations. Revenue in the ${c.quarter} quarter rose ${c.growth}% to $${c.revenue} billion.`,
        (c) =>
          `Executives said large customers were taking longer to sign deals and scrutinizing every purchase, while budgets shift toward AI projects. ${c.analyst} said the results showed how quickly sentiment turns when growth slows.`,
      ],
    },
    {
      title: (c) => `${c.startup} files for IPO, testing investor appetite for tech listings`,
      snippet: (c) =>
        `The company plans to raise about ${money(c.raise)} and could be valued at more than ${money(c.billions * 1000)}, people familiar with the matter said.`,
      paragraphs: [
        (c) =>
          `${c.startup} has filed publicly for an initial public offering, according to documents made available on ${c.day}. The company aims to raise about ${money(c.raise)}, people familiar with the plans said.`,
        (c) =>
          `The filing shows revenue growing ${c.growth}% last year, with losses narrowing. The listing will be watched as a test of whether public investors are willing to pay up for growth after several years of few technology IPOs.`,
      ],
    },
    {
      title: (c) => `${c.company} agrees to buy ${c.startup} for ${money(c.billions * 1000)}`,
      snippet: (c) =>
        `The deal adds AI and data tools to ${c.company}'s portfolio and is expected to close next year, subject to regulatory approval.`,
      paragraphs: [
        (c) =>
          `${c.company} said it would acquire ${c.startup} for ${money(c.billions * 1000)} in cash and stock, its largest acquisition to date.`,
        (c) =>
          `${c.person}, ${c.company}'s chief executive, said ${c.startup}'s products would help customers put AI to work on their own data. Analysts said the price was high but reflected the scarcity of companies with proven AI revenue.`,
        () => 'The deal requires regulatory approval and is expected to close in the first half of next year.',
      ],
    },
    {
      title: (c) => `Tech stocks slide as investors question AI spending; ${c.company} leads declines`,
      snippet: (c) =>
        `Concerns about the returns on heavy AI investment weighed on ${c.kind} stocks, with ${c.company} down ${c.pct}% over the week.`,
      paragraphs: [
        (c) =>
          `Technology shares fell for a third straight session as investors questioned whether the heavy spending on AI infrastructure will pay off soon enough. ${c.company} was among the biggest decliners, down ${c.pct}% for the week.`,
        (c) =>
          `"The market is moving from rewarding AI spending to demanding AI revenue," said ${c.analyst}. Some strategists said the pullback was healthy after a strong run.`,
      ],
    },
  ],
  closers: [
    () =>
      'Markets have been volatile this year as investors weigh interest-rate expectations against strong earnings from the largest technology companies.',
  ],
});

const marketing = family({
  topic: 'marketing',
  count: 26,
  domains: ['www.adweek.com', 'www.marketingdive.com', 'www.axios.com', 'www.businessinsider.com', 'www.ft.com', 'www.theverge.com'],
  context: (rng) => ({
    brand: rng.pick([
      'Bramble Foods',
      'Orchard Retail Group',
      'Lumen Beauty',
      'Tidewell Beverages',
      'Northpeak Outdoor',
      'Velo Motors',
      'Hearth Home',
      'Cinder Sportswear',
    ]),
    agency: rng.pick(['Fieldhouse Agency', 'Kite & Key', 'Brightwater Media', 'Common Thread Creative', 'Parlour Group']),
    vendor: startupName(rng),
    pct: rng.int(10, 45),
    share: rng.int(20, 70),
    person: rng.pick(PEOPLE),
    analyst: rng.pick(ANALYSTS),
    marketers: rng.pick(['400', '650', '1,200', '2,000']),
  }),
  seeds: [
    {
      title: (c) => `${c.brand} uses generative AI to produce ${c.pct}% more ad variants`,
      snippet: (c) =>
        `The brand's marketing team works with ${c.agency} to generate and test creative with AI, while people approve every final asset.`,
      paragraphs: [
        (c) =>
          `${c.brand} has started using generative AI tools to produce variations of its ads for different audiences and channels, working with its agency ${c.agency}. The company said it now tests ${c.pct}% more creative variants per campaign.`,
        (c) =>
          `Chief marketing officer ${c.person} said AI handles resizing, copy variations and background changes, while the brand's designers focus on the core idea. Every asset is reviewed by a person before it runs, in part to protect brand safety.`,
      ],
    },
    {
      title: (c) => `Survey: ${c.share}% of marketers now use AI for content, but few trust it unsupervised`,
      snippet: (c) =>
        `A survey of ${c.marketers} marketing leaders found wide adoption of AI writing tools, with quality control and brand voice the top concerns.`,
      paragraphs: [
        (c) =>
          `${c.share}% of marketing teams use generative AI to draft content such as emails, social posts and product descriptions, according to a survey of ${c.marketers} marketing leaders published this week.`,
        () =>
          'Most respondents said every AI-written piece is edited by a person, and only a small minority let AI publish directly. The most common worries were off-brand tone, factual errors and legal risk around copyrighted material.',
        (c) =>
          `"The productivity gains are real, but the winners are teams that rebuilt their review process, not the ones that just bought a tool," said ${c.analyst}.`,
      ],
    },
    {
      title: (c) => `Retail media ad spending keeps climbing as ${c.brand} shifts budget`,
      snippet: () =>
        `Retailers' ad networks promise sales data that other channels cannot match, and brands are moving money from traditional display ads.`,
      paragraphs: [
        (c) =>
          `${c.brand} said it would move about ${c.pct}% of its digital advertising budget to retail media networks, the ad businesses run by retailers on their websites and apps.`,
        (c) =>
          `Marketers like retail media because it ties ads to actual purchases. But ${c.person}, who oversees media buying at ${c.brand}, said measurement standards still vary widely between retailers, making comparisons hard.`,
      ],
    },
    {
      title: () => `AI answers in search are cutting clicks to brand websites, marketers say`,
      snippet: () => `Publishers and brands report falling organic traffic as search engines show AI-generated summaries above links.`,
      paragraphs: [
        (c) =>
          `Marketing teams say traffic from search has fallen as search engines answer more questions directly with AI-generated summaries. ${c.brand} reported a ${c.pct}% decline in organic search visits to its content pages over the past year.`,
        (c) =>
          `Agencies such as ${c.agency} are advising clients to focus on content that AI summaries cite, and to invest more in email lists and communities they control. "Search is becoming an answer engine, and brands need to be the source of the answer," ${c.person} said.`,
      ],
    },
    {
      title: (c) => `${c.vendor} launches AI tool to measure marketing ROI across channels`,
      snippet: () =>
        `The marketing analytics startup says its model estimates each channel's contribution to sales without relying on third-party cookies.`,
      paragraphs: [
        (c) =>
          `${c.vendor}, a marketing analytics startup, has released a tool that uses machine learning to estimate how much each channel, from TV to social ads, contributes to sales. ${c.brand} is among the early customers.`,
        () =>
          'Interest in such marketing mix models has grown as privacy changes made it harder to track individual users across websites. The approach relies on aggregate data instead of personal identifiers.',
      ],
    },
  ],
  closers: [
    () =>
      'Advertising budgets have held up better than expected this year, but chief marketing officers say they are under pressure to prove returns on every channel.',
    (c) => `${c.analyst} expects AI tools to change agency economics, as work billed by the hour gets faster to produce.`,
  ],
});

const sales = family({
  topic: 'sales',
  count: 26,
  domains: ['venturebeat.com', 'techcrunch.com', 'www.zdnet.com', 'www.businessinsider.com', 'siliconangle.com', 'www.axios.com'],
  context: (rng) => ({
    crm: rng.pick(['Cobalt CRM', 'Pipeline Cloud', 'Salesgrid', 'Harborline CRM', 'Relay Sales Suite']),
    startup: startupName(rng),
    company: rng.pick(ENTERPRISES),
    pct: rng.int(10, 40),
    hours: rng.int(3, 12),
    reps: rng.pick(['800', '1,500', '3,000', '6,000']),
    person: rng.pick(PEOPLE),
    analyst: rng.pick(ANALYSTS),
    amount: rng.int(8, 90),
  }),
  seeds: [
    {
      title: (c) => `${c.crm} adds AI agents that qualify leads and book meetings`,
      snippet: () =>
        `The agents respond to inbound leads within minutes, answer product questions and hand qualified prospects to human sales reps.`,
      paragraphs: [
        (c) =>
          `${c.crm} has introduced AI agents that can respond to inbound sales leads, ask qualifying questions and book meetings with sales reps. The agents draw on the customer's own product documentation and CRM records.`,
        (c) =>
          `Customers in early testing saw response times to new leads drop from hours to minutes and meetings booked rise by ${c.pct}%, the company said. Pricing is based on the number of conversations rather than seats.`,
        (c) =>
          `${c.analyst} said the shift to usage-based pricing reflects a broader change in software, as AI agents do work that used to require additional headcount.`,
      ],
    },
    {
      title: () => `Sales reps spend only a third of their time selling, survey finds`,
      snippet: (c) =>
        `A survey of ${c.reps} B2B sales professionals found admin work, data entry and internal meetings take up most of the week. Many hope AI will help.`,
      paragraphs: [
        (c) =>
          `Business-to-business sales reps spend roughly a third of their working time actually talking to customers, according to a survey of ${c.reps} sales professionals. The rest goes to updating the CRM, writing proposals, internal meetings and research.`,
        (c) =>
          `Respondents who use AI assistants to log calls and draft follow-up emails reported saving about ${c.hours} hours a week. Sales leaders said the biggest gains came from automatic call notes that flow straight into the CRM.`,
      ],
    },
    {
      title: (c) => `${c.startup} raises ${money(c.amount)} for AI that writes sales follow-ups`,
      snippet: () => `The startup's software drafts personalized follow-up emails after each call and updates deal records automatically.`,
      paragraphs: [
        (c) =>
          `${c.startup} has raised ${money(c.amount)} to expand its AI assistant for sales teams, which listens to sales calls, drafts follow-up emails and updates deal stages in the CRM.`,
        (c) =>
          `Founder ${c.person} said customers see follow-ups sent faster and more consistently, and managers get a clearer picture of their pipeline. Reps approve every email before it is sent.`,
      ],
    },
    {
      title: (c) => `${c.company.name} rebuilds its sales process around AI, cutting proposal time by ${c.pct}%`,
      snippet: (c) =>
        `The ${c.company.industry} company uses large language models to draft proposals from past winning bids and product data.`,
      paragraphs: [
        (c) =>
          `${c.company.name} said its sales teams now use an AI system to draft proposals from a library of past winning bids, pricing rules and product data. Proposal preparation time fell ${c.pct}% in the first six months.`,
        (c) =>
          `Head of sales operations ${c.person} said the system works because it is grounded in approved content: reps can see which source every paragraph came from, and legal signs off on the templates.`,
      ],
    },
    {
      title: (c) => `${c.crm} raises prices as it bundles AI features into every plan`,
      snippet: (c) =>
        `Customers will pay about ${c.pct}% more per seat, with AI assistants for email, forecasting and call notes included by default.`,
      paragraphs: [
        (c) =>
          `${c.crm} will raise list prices by about ${c.pct}% per user, while adding its AI assistant features to all paid plans. Existing customers will move to the new pricing at renewal.`,
        (c) =>
          `Some customers said they would have preferred to opt in. "Bundling AI is a way to raise prices in a slow market," said ${c.analyst}, though the analyst added that usage of the AI features has been higher than many vendors expected.`,
      ],
    },
  ],
  closers: [
    () => 'Sales technology vendors are racing to add AI agents as buyers consolidate their software spending onto fewer platforms.',
  ],
});

const REGULATORS = [
  { name: "Europe's data protection authorities", plural: true },
  { name: "the UK's competition watchdog", plural: false },
  { name: 'the European Commission', plural: false },
  { name: 'US federal regulators', plural: true },
  { name: 'a group of state attorneys general', plural: true },
  { name: "Canada's privacy commissioner", plural: false },
];

/** The verb form that agrees with the regulator: `agree(r, 'open', 'opens')`. */
const agree = (regulator: { plural: boolean }, plural: string, singular: string) => (regulator.plural ? plural : singular);

const regulation = family({
  topic: 'regulation',
  count: 32,
  domains: [
    'www.reuters.com',
    'www.ft.com',
    'www.bloomberg.com',
    'www.axios.com',
    'arstechnica.com',
    'www.theverge.com',
    'www.wired.com',
    'www.theregister.com',
  ],
  context: (rng) => ({
    lab: rng.pick(LABS),
    cloud: rng.pick(CLOUDS),
    company: rng.pick(['Cobalt Software', 'Meridian Group', 'Trellis Networks', 'Beacon Commerce', 'Vertex Technologies']),
    regulator: rng.pick(REGULATORS),
    fine: rng.int(5, 400),
    months: rng.int(6, 24),
    person: rng.pick(PEOPLE),
    state: rng.pick(['California', 'New York', 'Colorado', 'Texas', 'Illinois', 'Washington']),
    authors: rng.pick(['a group of novelists', 'several news publishers', 'a photo agency', 'music labels', 'a coalition of illustrators']),
  }),
  seeds: [
    {
      title: () => `Companies race to meet EU AI Act obligations for general-purpose models`,
      snippet: (c) =>
        `Providers such as ${c.lab.name} must document training data and test their models for systemic risks as the law's rules phase in.`,
      paragraphs: [
        (c) =>
          `AI developers are preparing documentation, copyright policies and risk assessments as obligations for general-purpose AI models under the EU's AI Act take effect. ${c.lab.name} said it has a team of ${c.months * 3} people working on compliance.`,
        (c) =>
          `Companies deploying high-risk AI systems, such as those used in hiring or credit decisions, face further requirements later. ${c.person}, a lawyer who advises technology companies, said many firms still do not know which of their systems fall into which category.`,
      ],
    },
    {
      title: (c) => `${capitalize(c.regulator.name)} ${agree(c.regulator, 'open', 'opens')} probe into cloud market competition`,
      snippet: (c) =>
        `The investigation will look at egress fees, software licensing and credits that may lock customers into providers such as ${c.cloud}.`,
      paragraphs: [
        (c) =>
          `${capitalize(c.regulator.name)} said ${agree(c.regulator, 'they have', 'it has')} opened an investigation into competition in cloud computing, focusing on fees charged to move data out, software licensing terms and discounts that may make switching providers difficult.`,
        (c) =>
          `${c.cloud} said it welcomed the review and believes the market is highly competitive. Smaller cloud providers have complained for years that the largest players use their scale to keep customers locked in. The probe is expected to take about ${c.months} months.`,
      ],
    },
    {
      title: (c) => `${c.company} fined ${money(c.fine)} over data protection failures`,
      snippet: () => `Regulators said the company used customer data for advertising and AI training without a valid legal basis.`,
      paragraphs: [
        (c) =>
          `${capitalize(c.regulator.name)} fined ${c.company} ${money(c.fine)}, saying it processed customer data for personalized advertising and to train AI models without proper consent.`,
        (c) =>
          `${c.company} said it disagreed with the decision and would appeal. The company has ${c.months} months to bring its data practices into compliance. The case is one of several in which regulators have questioned whether personal data can be used to train AI systems.`,
      ],
    },
    {
      title: (c) => `${c.lab.name} sued by ${c.authors} over AI training data`,
      snippet: (c) => `The lawsuit claims ${c.lab.name} copied copyrighted works without permission to train its large language models.`,
      paragraphs: [
        (c) =>
          `${capitalize(c.authors)} have sued ${c.lab.name}, alleging that the company copied their copyrighted works without permission or payment to train its large language models.`,
        (c) =>
          `${c.lab.name} said its use of publicly available data is lawful and that it offers ways for rights holders to opt out. The case joins a growing list of copyright suits against AI developers, whose outcomes could shape how models are trained.`,
        () =>
          'Some AI companies have begun signing licensing deals with publishers and stock image providers, which critics say shows the data has value that creators should share in.',
      ],
    },
    {
      title: (c) => `${c.state} passes AI safety bill requiring tests of powerful models`,
      snippet: () => `The law requires developers of the largest models to publish safety policies and report serious incidents.`,
      paragraphs: [
        (c) =>
          `Lawmakers in ${c.state} passed a bill that requires developers of the most powerful AI models to publish safety and security policies, test for severe risks and report serious incidents to the state.`,
        (c) =>
          `Supporters said the bill sets basic guardrails while federal rules remain unsettled. Industry groups warned that a patchwork of state laws will burden smaller developers. ${c.lab.name} said it already meets most of the requirements.`,
      ],
    },
    {
      title: (c) => `${capitalize(c.regulator.name)} ${agree(c.regulator, 'warn', 'warns')} companies over misleading AI claims`,
      snippet: () => `Regulators said marketing that exaggerates what AI products can do may breach consumer protection law.`,
      paragraphs: [
        (c) =>
          `${capitalize(c.regulator.name)} warned companies that advertising claims about artificial intelligence must be truthful and backed by evidence, and said ${agree(c.regulator, 'they are', 'it is')} examining several cases of so-called AI washing.`,
        () =>
          'The warning covers claims that a product uses AI when it does not, as well as exaggerated statements about accuracy or the ability to replace human professionals. Marketers should keep records of the testing behind any performance claim, the warning said.',
      ],
    },
  ],
  closers: [
    () =>
      'Rules for AI are evolving quickly on both sides of the Atlantic, and lawyers say companies should keep an inventory of the AI systems they build and buy.',
    (c) =>
      `${c.person}, a lawyer who advises technology companies, said enforcement so far has focused on data protection and consumer law, which already apply to AI products.`,
  ],
});

const security = family({
  topic: 'security',
  count: 22,
  domains: [
    'arstechnica.com',
    'www.wired.com',
    'www.theregister.com',
    'www.zdnet.com',
    'venturebeat.com',
    'www.reuters.com',
    'news.ycombinator.com',
  ],
  context: (rng, date) => ({
    day: weekday(date),
    company: rng.pick([...ENTERPRISES.map((e) => e.name), 'Cobalt Software', 'Beacon Commerce']),
    vendor: rng.pick(['Sparrow Security', 'Bastion Labs', 'Keyhole Defense', 'Tripwire Works']),
    lab: rng.pick(LABS),
    records: rng.pick(['1.2 million', '4 million', '650,000', '9 million', '300,000']),
    days: rng.int(2, 14),
    person: rng.pick(PEOPLE),
    product: rng.pick(['VPN appliance', 'file transfer software', 'email gateway', 'remote management tool', 'firewall']),
  }),
  seeds: [
    {
      title: (c) => `${c.company} confirms data breach affecting ${c.records} customers`,
      snippet: () =>
        `Attackers accessed names, contact details and account information through a compromised third-party system, the company said.`,
      paragraphs: [
        (c) =>
          `${c.company} said hackers accessed personal data of about ${c.records} customers after breaking into a third-party system used for customer service. The company said payment card numbers were not affected.`,
        () =>
          'The company has notified regulators and is offering affected customers credit monitoring. Security researchers said attacks on software suppliers have become one of the most common ways into large companies.',
      ],
    },
    {
      title: (c) => `Ransomware attack disrupts operations at ${c.company}`,
      snippet: (c) =>
        `Some systems were offline for ${c.days} days. The company said it is restoring from backups and has not paid a ransom.`,
      paragraphs: [
        (c) =>
          `${c.company} said a ransomware attack forced it to take some systems offline for ${c.days} days, delaying orders and customer service. The company said it was restoring systems from backups.`,
        (c) =>
          `${c.person}, an incident responder at ${c.vendor}, said attackers increasingly steal data before encrypting systems, so that they can threaten to publish it even when victims have good backups.`,
      ],
    },
    {
      title: (c) => `Prompt injection flaw let attackers steer ${c.lab.name}'s browsing agent, researchers say`,
      snippet: (c) =>
        `Hidden instructions on a web page could make the agent leak data from a user's session. ${c.lab.name} says the issue has been fixed.`,
      paragraphs: [
        (c) =>
          `Researchers at ${c.vendor} showed that instructions hidden in a web page could make an AI agent from ${c.lab.name} send data from a user's session to an outside server. The agent followed the hidden text as if it came from the user.`,
        (c) =>
          `${c.lab.name} said it fixed the specific issue and added checks before the agent sends data to new destinations. Researchers say prompt injection remains an open problem for any large language model that reads untrusted content.`,
      ],
    },
    {
      title: (c) => `Attackers exploit zero-day in widely used ${c.product}`,
      snippet: () =>
        `The vendor released an emergency patch, and agencies urged organizations to update immediately and check for signs of compromise.`,
      paragraphs: [
        (c) =>
          `Attackers have been exploiting a previously unknown vulnerability in a widely used ${c.product} to break into corporate networks, researchers at ${c.vendor} said. The vendor released an emergency patch on ${c.day}.`,
        () =>
          'Security agencies urged organizations to install the update and to look for signs that attackers had already gained access, since patching does not remove intruders who got in earlier.',
      ],
    },
  ],
  closers: [
    () =>
      'Security spending has held up even as companies cut other technology budgets, with AI-powered tools for detection and response among the fastest-growing categories.',
  ],
});

const HN_POSTS = [
  {
    title: 'Show HN: A tiny vector database in 900 lines of Rust',
    snippet: 'I built an embeddable vector index for small projects that need semantic search without running a separate service.',
    body: 'The author describes an embeddable vector index that stores embeddings on disk and supports approximate nearest-neighbour search with a simple graph index. Benchmarks in the README compare it with larger systems on a laptop.',
    comments:
      'Commenters asked about recall at larger sizes and suggested adding filtering by metadata, which the author said is on the roadmap.',
  },
  {
    title: 'Show HN: I replaced our support chatbot with a 3B model running on one CPU',
    snippet: 'A write-up of moving a support assistant from a hosted LLM API to a small local model, with costs and quality numbers.',
    body: 'The post explains how a small team fine-tuned a 3-billion-parameter model on past support tickets and now serves it on a single CPU server. They report lower costs and similar customer satisfaction scores, with harder questions routed to staff.',
    comments:
      'Discussion focused on evaluation: several commenters asked how the team measured answer quality, and others shared similar experiences with small language models.',
  },
  {
    title: 'Ask HN: How are you evaluating LLM features in production?',
    snippet: 'Looking for practical approaches to testing prompts and model upgrades before they reach users.',
    body: 'The question asks how teams catch regressions when they change prompts or switch large language models, and whether anyone trusts automated grading by another model.',
    comments:
      'Top answers recommend keeping a fixed set of real examples with expected outputs, reviewing a sample by hand after each change, and treating model-graded scores as a signal rather than the truth.',
  },
  {
    title: 'Ask HN: Is anyone actually getting ROI from AI coding assistants?',
    snippet: 'Our team has used AI assistants for a year. Curious how others measure the impact beyond anecdotes.',
    body: 'The poster says their team feels faster with AI coding assistants but cannot show it in delivery metrics, and asks how others measure the effect.',
    comments:
      'Replies were split: some reported big gains on boilerplate and tests, others said time saved writing code is lost in review. Several suggested measuring cycle time rather than lines of code.',
  },
  {
    title: 'The hidden costs of running Kubernetes for a five-person startup',
    snippet: 'An essay on why a small team moved back to a simpler platform after two years of managing its own clusters.',
    body: 'The essay argues that the operational overhead of Kubernetes outweighed its benefits for a small team, and describes a migration to a managed platform that cut cloud costs and on-call load.',
    comments:
      'Commenters debated whether the problems came from Kubernetes itself or from adopting it too early, with many sharing similar migrations in both directions.',
  },
  {
    title: 'Why GPU prices are finally falling',
    snippet: 'An analysis of rental prices for AI accelerators over the past two years, and what it means for startups.',
    body: 'The article tracks hourly rental prices for high-end GPUs across cloud providers and smaller GPU clouds, showing a steady decline as new data center capacity came online.',
    comments:
      'Readers pointed out that prices for the newest chips remain high and that long-term contracts signed at the peak are now a burden for some AI startups.',
  },
  {
    title: 'Show HN: Open-source tool that turns any website into an LLM-ready Markdown dump',
    snippet: 'A CLI that crawls a site, strips navigation and ads, and produces clean Markdown for retrieval-augmented generation.',
    body: 'The tool crawls a site while respecting robots.txt, extracts the main content of each page and writes Markdown files with metadata, for use in retrieval pipelines for large language models.',
    comments: 'Some commenters raised concerns about scraping and consent, while others asked for support for JavaScript-heavy sites.',
  },
  {
    title: 'Our Postgres bill dropped 60% after we stopped storing JSON blobs',
    snippet: 'A database migration story: what changed when a startup normalized its schema and moved large documents to object storage.',
    body: 'The post describes how large JSON columns bloated tables and indexes, and how moving documents to object storage with references in Postgres reduced storage and improved query times.',
    comments:
      'Database engineers in the thread discussed TOAST behavior, and several noted that JSON columns are fine for small, rarely queried data.',
  },
  {
    title: 'Ask HN: What is your stack for AI agents that actually work?',
    snippet: 'Building an agent that handles back-office tasks. What frameworks, models and guardrails have worked for you?',
    body: 'The poster is building an AI agent for invoice processing and asks what others use for tool calling, state management and human approval steps.',
    comments:
      'Most replies recommended keeping agents narrow, using plain code for control flow instead of heavy frameworks, and logging every model call for debugging.',
  },
  {
    title: 'Show HN: Local-first CRM for small sales teams',
    snippet: 'A CRM that syncs between devices without a central server, built for teams that want to own their customer data.',
    body: 'The project is a customer relationship manager that stores data locally and syncs peer to peer, with pipelines, reminders and email templates for small B2B sales teams.',
    comments: 'Commenters liked the privacy angle and asked about integrations with email providers and accounting software.',
  },
  {
    title: 'The economics of AI inference are changing faster than anyone expected',
    snippet: 'A long read on falling token prices, smaller models and what it means for AI startups built on top of LLM APIs.',
    body: 'The article argues that rapidly falling prices for large language model inference are eroding the margins of AI labs while making it cheaper for application companies to build products.',
    comments: 'The discussion turned to whether labs can keep cutting prices and whether open-weight models will commoditize the market.',
  },
  {
    title: 'Launch HN: Ledgerwise – AI bookkeeping for small businesses',
    snippet: 'Ledgerwise categorizes transactions and reconciles accounts automatically, with accountants reviewing the books every month.',
    body: 'The founders describe an AI bookkeeping service that combines large language models with human accountants, aimed at small businesses that cannot afford a full-time bookkeeper.',
    comments: 'Questions from the community focused on accuracy, liability for mistakes, and how the service handles unusual transactions.',
  },
  {
    title: 'How we cut our cloud bill by moving CI to bare metal',
    snippet: 'A detailed account of moving continuous integration from a cloud provider to rented servers, with numbers.',
    body: 'The team explains why their CI workloads were a poor fit for on-demand cloud instances, and how rented dedicated servers cut costs while making builds faster.',
    comments: 'Commenters compared providers and warned about the hidden work of maintaining hardware, backups and security updates.',
  },
  {
    title: 'Show HN: A browser extension that flags AI-generated product reviews',
    snippet: 'The extension scores reviews on shopping sites and highlights ones that look machine-written.',
    body: 'The extension uses a small classifier and stylistic signals to estimate whether reviews were written by AI, and shows a warning next to suspicious reviews.',
    comments:
      'Many commenters doubted that detection can stay reliable as models improve, while others said even a rough signal is useful.',
  },
  {
    title: 'Ask HN: Did AI search tools change how you do market research?',
    snippet: 'Curious whether people in marketing and sales now rely on AI research assistants instead of web search.',
    body: 'The poster works in marketing and asks whether others use AI research tools to compile competitor and market information, and how they check accuracy.',
    comments:
      'Replies said the tools are good for a first pass and for finding sources, but that every figure needs to be checked against the original source.',
  },
  {
    title: 'A deep dive into high-bandwidth memory and why AI chips need so much of it',
    snippet: 'An explainer on HBM stacks, packaging and why memory bandwidth limits large language model performance.',
    body: 'The explainer walks through how HBM is stacked and packaged next to accelerators, and why inference for large language models is often limited by memory bandwidth rather than compute.',
    comments: 'Hardware engineers in the thread added details about packaging yields and the limited number of suppliers.',
  },
  {
    title: 'Show HN: Open-source evals for RAG pipelines',
    snippet: 'A toolkit for measuring retrieval quality and answer faithfulness in retrieval-augmented generation systems.',
    body: 'The toolkit generates test questions from a document set, measures whether the right passages are retrieved, and checks whether answers stay faithful to the sources.',
    comments: 'Users compared it with existing evaluation libraries and asked for support for multilingual documents.',
  },
  {
    title: 'What we learned from a year of selling to enterprises as a 10-person startup',
    snippet: "Security reviews, procurement and pilots: a founder's notes on enterprise sales cycles.",
    body: 'The founder describes long security questionnaires, pilots that never converted, and the value of a champion inside the customer, with advice for small teams selling to large companies.',
    comments: 'Commenters shared their own sales cycle lengths and recommended getting a security certification early.',
  },
  {
    title: 'The case against microservices for most startups',
    snippet: 'An argument for the modular monolith, from an engineer who has migrated in both directions.',
    body: 'The essay argues that most early-stage companies pay a heavy price in complexity for microservices and would be better served by a well-structured monolith.',
    comments:
      'The thread revisited a long-running debate, with many agreeing and some noting that team structure matters more than architecture.',
  },
  {
    title: 'Show HN: I built a personal research agent that reads papers for me',
    snippet: 'The agent searches arXiv, reads new papers in my field and sends a weekly digest with summaries and key points.',
    body: 'The author built an agent on top of an LLM API that finds new papers matching a list of topics, summarizes them and highlights methods and results, with links to the sources.',
    comments:
      'Readers asked about hallucinated details in summaries; the author said the digest quotes the abstract alongside every summary for that reason.',
  },
  {
    title: 'Ask HN: How do you handle data privacy with LLM APIs at work?',
    snippet: 'Our legal team is nervous about sending customer data to third-party AI providers. What policies have worked?',
    body: 'The poster asks how companies decide what data may be sent to external large language model APIs, and whether self-hosting is worth the effort.',
    comments:
      'Answers mentioned enterprise agreements with no-training clauses, redacting personal data before prompts, and running open-weight models for the most sensitive data.',
  },
  {
    title: 'Show HN: Semantic search for our company wiki with a single SQLite file',
    snippet: 'We added embeddings to SQLite and replaced a hosted search service for our internal documentation.',
    body: 'The post describes storing embeddings alongside documents in SQLite, using a small embedding model and hybrid keyword plus vector ranking for an internal wiki.',
    comments: 'Commenters shared similar setups and discussed how well hybrid search works compared with pure vector search.',
  },
];

const hackerNews: Family = {
  topic: 'hn',
  count: HN_POSTS.length,
  domains: ['news.ycombinator.com'],
  write(rng, _date, index) {
    const post = HN_POSTS[index % HN_POSTS.length]!;
    const points = rng.int(90, 1400);
    const comments = Math.round(points * (rng.int(25, 90) / 100));
    return {
      topic: 'hn',
      title: post.title,
      snippet: post.snippet,
      paragraphs: [post.body, `${post.comments} The thread reached ${points} points and ${comments} comments.`],
    };
  },
};

/** House style on generated text: `Labs's` → `Labs'`, and every sentence starts with a capital. */
function tidy(text: string): string {
  return capitalize(
    text
      .replace(/\b(\w+s)'s\b/g, "$1'")
      .replace(/([.!?]["”]?\s+)([a-z])/g, (_match, end: string, first: string) => end + first.toUpperCase()),
  );
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/** Every family, in generation order. */
export const FAMILIES: readonly Family[] = [
  llmReleases,
  llmEnterprise,
  llmResearch,
  aiFunding,
  startupFunding,
  cloud,
  chips,
  markets,
  marketing,
  sales,
  regulation,
  security,
  hackerNews,
];
